"""Refusing requests another site makes with this visitor's cookie (cross-site request
forgery) on the routes that change who a browser is.

The cookie is SameSite=Lax, so a browser sends it with another site's POST or DELETE only
when that site is the same *site* (a sibling subdomain, or the same host over plain HTTP):
the checks here close that gap, and do not depend on it. A request is taken only if

- it does not say it comes from elsewhere: ``Sec-Fetch-Site`` (every current browser sends
  it) is ``same-origin`` or ``none`` (typed or bookmarked), and ``Origin``, when sent, is this
  site's own (scheme and host, as the room socket's check reads them), and
- a body it carries is JSON (``Content-Type: application/json``): a plain HTML form cannot
  send that, and another page's script can only with CORS, which this site never allows.

A signed-in session made by another page (login CSRF) would put the visitor's guest games into
the forger's account when they sign in: ``POST /api/session`` is guarded first of all.
Clients that are not browsers send neither header and hold no visitor's cookie but their own.
"""

from __future__ import annotations

from urllib.parse import urlsplit

from fastapi import HTTPException, Request

SAFE = {"GET", "HEAD", "OPTIONS"}
TRUSTED_FETCH = {"same-origin", "none"}


def refuse_cross_site(request: Request) -> None:
    """A FastAPI dependency: 403 ``cross_site`` for a state-changing request that another
    site may have made, 415 ``json_only`` for a body that is not JSON."""
    if request.method in SAFE:
        return
    fetch_site = request.headers.get("sec-fetch-site")
    origin = request.headers.get("origin")
    if (fetch_site is not None and fetch_site not in TRUSTED_FETCH) or (
        origin is not None and not _own(request, origin)
    ):
        message = "this request came from another site; it was refused"
        raise HTTPException(403, detail={"code": "cross_site", "message": message})
    has_body = request.headers.get("content-length", "0") != "0" or (
        "transfer-encoding" in request.headers
    )
    media = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if has_body and media != "application/json":
        message = "this route takes a JSON body (Content-Type: application/json)"
        raise HTTPException(415, detail={"code": "json_only", "message": message})


def _own(request: Request, origin: str) -> bool:
    page = urlsplit(origin)
    return page.scheme == request.url.scheme and page.netloc == request.headers.get("host")
