#ifndef KAHVE_ENGINE_CORE_CHECK_H_
#define KAHVE_ENGINE_CORE_CHECK_H_

#include <cstdio>
#include <cstdlib>

// KAHVE_CHECK(cond, why): a broken engine invariant is our bug, never a player's: it aborts loudly,
// in every build type. Use it where the check is cheap or off the hot path (CheckInvariants,
// replay); hot paths use assert().
#define KAHVE_CHECK(cond, why)                                                                \
  do {                                                                                        \
    if (!(cond)) {                                                                            \
      std::fprintf(stderr, "%s:%d: check failed: %s (%s)\n", __FILE__, __LINE__, #cond, why); \
      std::abort();                                                                           \
    }                                                                                         \
  } while (false)

#endif  // KAHVE_ENGINE_CORE_CHECK_H_
