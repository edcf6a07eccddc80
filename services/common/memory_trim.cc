#include "services/common/memory_trim.h"

#include <malloc.h>

namespace kahve::common {

FreedMemoryTrimmer::FreedMemoryTrimmer(prometheus::Registry& registry, absl::Duration interval)
    : interval_(interval),
      trims_(prometheus::BuildCounter()
                 .Name("kahve_memory_trims_total")
                 .Help("Times freed heap memory was given back to the system.")
                 .Register(registry)
                 .Add({})),
      thread_([this] { Loop(); }) {}

FreedMemoryTrimmer::~FreedMemoryTrimmer() {
  stop_.Notify();
  thread_.join();
}

void FreedMemoryTrimmer::Loop() {
  while (!stop_.WaitForNotificationWithTimeout(interval_)) {
    // mallinfo2 sees only the main arena, while gRPC's threads free into arenas of their own:
    // trim every arena, and count the trims that gave memory back.
    if (malloc_trim(0) == 1) trims_.Increment();
  }
}

}  // namespace kahve::common
