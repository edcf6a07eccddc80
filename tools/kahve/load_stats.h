#ifndef KAHVE_TOOLS_KAHVE_LOAD_STATS_H_
#define KAHVE_TOOLS_KAHVE_LOAD_STATS_H_

// What every `kahve load` phase reports: successes, failures, the phase's length and the latency
// of each success, summarised as one JSON member.

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "absl/strings/str_format.h"

namespace kahve::tools {

struct PhaseResult {
  int64_t done = 0;
  int64_t failed = 0;
  double seconds = 0;
  std::vector<double> latencies_ms;
  double rate() const { return seconds > 0 ? done / seconds : 0; }
};

// The value at `fraction` of `values` (reorders them).
inline double Percentile(std::vector<double>& values, double fraction) {
  if (values.empty()) return 0;
  const size_t index = std::min(values.size() - 1, static_cast<size_t>(fraction * values.size()));
  std::nth_element(values.begin(), values.begin() + index, values.end());
  return values[index];
}

// `"name": {"done": .., "failed": .., "seconds": .., "per_second": .., "p50_ms": .., "p90_ms": ..,
// "p99_ms": ..}`
inline std::string Summary(const char* name, PhaseResult& result) {
  const double p50 = Percentile(result.latencies_ms, 0.50);
  const double p90 = Percentile(result.latencies_ms, 0.90);
  const double p99 = Percentile(result.latencies_ms, 0.99);
  return absl::StrFormat(
      "\"%s\": {\"done\": %d, \"failed\": %d, \"seconds\": %.3f, \"per_second\": %.0f, "
      "\"p50_ms\": %.2f, \"p90_ms\": %.2f, \"p99_ms\": %.2f}",
      name, result.done, result.failed, result.seconds, result.rate(), p50, p90, p99);
}

}  // namespace kahve::tools

#endif  // KAHVE_TOOLS_KAHVE_LOAD_STATS_H_
