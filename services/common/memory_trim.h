#ifndef KAHVE_SERVICES_COMMON_MEMORY_TRIM_H_
#define KAHVE_SERVICES_COMMON_MEMORY_TRIM_H_

// Gives freed heap memory back to the system. glibc keeps what a burst freed (a flood of streams
// cut by their budgets, thousands of calls refused) in its arenas, so a process that survived an
// attack would otherwise stay at its peak size. A thread trims every few seconds (a walk over the
// free lists: cheap beside the calls it follows); each trim that gave memory back counts in
// kahve_memory_trims_total.

#include <thread>

#include "absl/synchronization/notification.h"
#include "absl/time/time.h"
#include "prometheus/counter.h"
#include "prometheus/registry.h"

namespace kahve::common {

class FreedMemoryTrimmer {
 public:
  explicit FreedMemoryTrimmer(prometheus::Registry& registry,
                              absl::Duration interval = absl::Seconds(5));
  // Stops the thread.
  ~FreedMemoryTrimmer();

 private:
  void Loop();

  const absl::Duration interval_;
  prometheus::Counter& trims_;
  absl::Notification stop_;
  std::thread thread_;
};

}  // namespace kahve::common

#endif  // KAHVE_SERVICES_COMMON_MEMORY_TRIM_H_
