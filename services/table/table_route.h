#ifndef KAHVE_SERVICES_TABLE_TABLE_ROUTE_H_
#define KAHVE_SERVICES_TABLE_TABLE_ROUTE_H_

// Where a call about one table is answered (docs/table.md, "One entry address"): the typed answer
// of TableHost::Route and TableHost::TakeOver, which TableService follows in one place.

#include <memory>
#include <string>
#include <utility>

namespace kahve::table {

struct LiveTable;
// A table this host serves, as calls hold it: kept alive while a call is at it, even if the host
// lets go of the table meanwhile (the call is then refused UNAVAILABLE, never left dangling).
using TableHandle = std::shared_ptr<LiveTable>;

struct TableRoute {
  enum class Kind {
    // This host serves the table: `table`.
    kServeHere,
    // Not in memory here: the database says whether this host may take it over (TakeOver, which
    // blocks, so a worker runs it).
    kTakeOver,
    // A live other host holds the table and serves it at `endpoint`.
    kForward,
    // No such table on any host.
    kNotFound,
  };

  static TableRoute ServeHere(TableHandle table) {
    return {.kind = Kind::kServeHere, .table = std::move(table)};
  }
  static TableRoute TakeOver() { return {.kind = Kind::kTakeOver}; }
  static TableRoute Forward(std::string endpoint) {
    return {.kind = Kind::kForward, .endpoint = std::move(endpoint)};
  }
  static TableRoute NotFound() { return {.kind = Kind::kNotFound}; }

  Kind kind = Kind::kNotFound;
  TableHandle table;
  std::string endpoint;
};

}  // namespace kahve::table

#endif  // KAHVE_SERVICES_TABLE_TABLE_ROUTE_H_
