// kahve-table: the table service (the referee). See docs/configuration.md for every flag (each
// also read from KAHVE_<NAME>).

#include "services/table/table_process.h"

int main(int argc, char** argv) {
  return kahve::common::RunServiceMain(argc, argv, kahve::table::kTableService);
}
