// The JSON API of the server. Every failure is an ApiError with a `kind`: the server's own
// (`format`, `argument`, `too-complex`, `busy`, ...), `offline` when the server cannot be
// reached, or `cancelled` when the caller aborted the request; the page words it in the
// player's language (i18n.js: errorText), never showing the browser's own message.

export class ApiError extends Error {
  constructor(status, data) {
    super(data && data.error ? data.error : "HTTP " + status);
    this.status = status;
    this.data = data || {};
    this.kind = this.data.kind || (status ? "request" : "offline");
  }
}

const cancelled = () => new ApiError(0, { kind: "cancelled", error: "cancelled" });

export async function api(method, path, body, { signal } = {}) {
  const init = { method, headers: {}, signal };
  if (body !== undefined) {
    init.headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  let response;
  try {
    response = await fetch(path, init);
  } catch (err) {
    if (err && err.name === "AbortError") throw cancelled();
    throw new ApiError(0, { kind: "offline", error: String(err && err.message) });
  }
  let data = null;
  try {
    data = await response.json();
  } catch (err) {
    // Aborted while the answer was read: cancelled too, not an answer without a body.
    if (err && err.name === "AbortError") throw cancelled();
    data = null;
  }
  if (!response.ok) throw new ApiError(response.status, data);
  return data;
}
