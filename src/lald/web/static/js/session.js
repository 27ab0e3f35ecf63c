// Who is logged in on this page, and the headers every request that changes something
// carries: the session's CSRF token (lald.web.people.accounts), which the server asks of every
// such request that comes with the session's cookie.
let current = { account: null, csrf: null };

export async function loadSession() {
  try {
    const response = await fetch("/api/session", { cache: "no-store" });
    if (response.ok) current = await response.json();
  } catch { /* the server is away: the page works as a guest's until it is back */ }
  return current;
}

export const session = () => current;

export function setSession(answer) {
  current = { account: answer.account || null, csrf: answer.csrf || null };
}

// The headers of a post: its media type and, when logged in, the CSRF token.
export function postHeaders(type = "application/json") {
  const headers = { "Content-Type": type };
  if (current.csrf) headers["X-CSRF-Token"] = current.csrf;
  return headers;
}
