// docs/api.md section 5: every TableService call about a table should carry `kahve-table-id`, so
// that a gateway in front of the table hosts routes a table's calls to the host that serves it.
import type { Interceptor } from "@connectrpc/connect";

const kTableService = "kahve.v1.TableService";
const kTableIdHeader = "kahve-table-id";

/** Adds `kahve-table-id` to unary TableService calls whose request names a table. */
export function tableIdInterceptor(): Interceptor {
  return (next) => async (req) => {
    if (!req.stream && req.service.typeName === kTableService && !req.header.has(kTableIdHeader)) {
      const tableId = (req.message as { tableId?: unknown }).tableId;
      if (typeof tableId === "string" && /^[A-Za-z0-9._:-]{1,128}$/.test(tableId)) {
        req.header.set(kTableIdHeader, tableId);
      }
    }
    return next(req);
  };
}

/** The headers a streaming TableService call should carry (streams set them themselves). */
export function tableIdHeaders(tableId: string): Record<string, string> {
  return /^[A-Za-z0-9._:-]{1,128}$/.test(tableId) ? { [kTableIdHeader]: tableId } : {};
}
