// JSON over HTTP to the server's API, with errors turned into readable exceptions.

export class ApiError extends Error {
  constructor(status, code, message) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

async function request(method, url, body) {
  let response;
  try {
    response = await fetch(url, {
      method,
      headers:
        body === undefined
          ? { Accept: "application/json" }
          : {
              Accept: "application/json",
              "Content-Type": "application/json",
            },
      body: body === undefined ? undefined : JSON.stringify(body),
      credentials: "same-origin",
    });
  } catch (error) {
    throw new ApiError(0, "network", String(error));
  }
  let data = null;
  try {
    data = await response.json();
  } catch {
    data = null;
  }
  if (!response.ok) {
    const detail = data?.detail ?? data?.error ?? data;
    const code = detail?.code ?? data?.code ?? `http_${response.status}`;
    const message = detail?.message ?? (typeof detail === "string" ? detail : response.statusText);
    throw new ApiError(response.status, code, message || `HTTP ${response.status}`);
  }
  return data;
}

export const getJSON = (url) => request("GET", url);
export const postJSON = (url, body) => request("POST", url, body);
export const putJSON = (url, body) => request("PUT", url, body);
export const deleteJSON = (url, body) => request("DELETE", url, body);
