"""The web Ship Order Desk's application: every route, assembled in one place from the page
modules, with the desk's answers to a lost session, a service down and another player's data.

A Starlette application, server-rendered with Jinja2 templates, a client of the orders and
reports services. This module only imports: no page module imports it.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from http import HTTPStatus

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import FileResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from services.web import (
    account_pages,
    account_tokens_page,
    archive_pages,
    away_page,
    gm,
    handover,
    lobby_pages,
    minister,
    notify_page,
    pages,
    preview_page,
    readiness,
    replay_pages,
    reports_pages,
    result_page,
    security,
    solo_page,
    wording,
)
from services.web.backend import Backend
from services.web.backend_errors import (
    BackendError,
    ForbiddenError,
    NotLoggedInError,
    RefusedError,
    ServiceDownError,
)
from services.web.config import WebSettings
from services.web.desk import HERE, Desk, Handler, StaleFormError


def page(desk: Desk, handler: Handler) -> Callable[[Request], Awaitable[Response]]:
    """A page handler with the desk's answers to a lost session, a service
    down and another player's data."""

    async def endpoint(request: Request) -> Response:
        try:
            return await handler(desk, request)
        except NotLoggedInError as err:
            kept = getattr(request.state, "kept_form", None)
            cid = request.path_params.get("campaign", "")
            # an ended session leaves the cookie; a stale form's current session stays
            ended = not isinstance(err, StaleFormError)
            return desk.login_page(request, cid, err.message, kept, ended=ended)
        except ServiceDownError as err:
            return desk.render(
                request, "error.html", status=503, title="Service unavailable", message=err.message
            )
        except ForbiddenError:
            return not_found(desk, request)
        except RefusedError as err:
            # a page that expects no refusal: a URL naming nothing is "Not found"; a form's
            # refusal is said in words, never with the service's field names or patterns
            if request.method == "GET":
                return not_found(desk, request)
            said = "; ".join(wording.lines(err.message)) or "the request was refused"
            return desk.render(request, "error.html", status=422, title="Not accepted", message=said)
        except BackendError as err:
            return desk.render(
                request, "error.html", status=502, title="Something went wrong", message=err.message
            )

    return endpoint


NOT_FOUND = "There is nothing here for you."


def not_found(desk: Desk, request: Request) -> Response:
    """The one "Not found" page: a page not yours, an id no one has, a URL the desk has no route for."""
    return desk.render(request, "error.html", status=404, title="Not found", message=NOT_FOUND)


def _game_master_routes(desk: Desk) -> list[Route]:
    return [
        Route("/c/{campaign}/gm", page(desk, gm.master), methods=["GET"]),
        Route("/c/{campaign}/gm/close", page(desk, gm.close_turn), methods=["POST"]),
        Route("/c/{campaign}/gm/deadline", page(desk, gm.set_deadline), methods=["POST"]),
        Route("/c/{campaign}/gm/password", page(desk, gm.set_password), methods=["POST"]),
        Route("/c/{campaign}/gm/pause", page(desk, gm.pause), methods=["POST"]),
        Route("/c/{campaign}/gm/failed", page(desk, gm.recover_turn), methods=["POST"]),
        Route("/c/{campaign}/gm/create", page(desk, gm.create_campaign), methods=["POST"]),
        Route("/c/{campaign}/gm/bots/seats", page(desk, handover.seats), methods=["POST"]),
        Route("/c/{campaign}/gm/bots/civil-disorder", page(desk, handover.civil_disorder), methods=["POST"]),
        Route("/c/{campaign}/gm/bots/absence", page(desk, handover.absence_allowance), methods=["POST"]),
        Route("/c/{campaign}/gm/reports", page(desk, gm.all_reports)),
        Route("/c/{campaign}/gm/replay", page(desk, replay_pages.replay_all)),
        Route("/c/{campaign}/gm/reports/{turn:int}/{player}", page(desk, gm.report_of)),
        Route("/c/{campaign}/gm/early-close", page(desk, readiness.early_close), methods=["POST"]),
        Route("/c/{campaign}/gm/options", page(desk, readiness.campaign_options), methods=["POST"]),
    ]


def _account_routes(desk: Desk) -> list[Route]:
    a, g, t = account_pages, account_pages.guarded, account_tokens_page
    return [
        Route("/account", page(desk, a.account), methods=["GET"]),
        Route("/account/login", page(desk, a.log_in), methods=["POST"]),
        Route("/account/logout", page(desk, a.log_out), methods=["POST"]),
        Route("/account/signup", page(desk, a.sign_up), methods=["POST"]),
        Route("/account/verify", page(desk, a.link), methods=["GET"]),
        Route("/account/verify", page(desk, a.verify), methods=["POST"]),
        Route("/account/reset", page(desk, a.link), methods=["GET"]),
        Route("/account/reset", page(desk, a.reset), methods=["POST"]),
        Route("/account/claim", page(desk, g(a.claim)), methods=["POST"]),
        Route("/account/play", page(desk, g(a.play)), methods=["POST"]),
        Route("/account/revoke", page(desk, g(a.revoke)), methods=["POST"]),
        Route("/account/delete", page(desk, g(a.delete)), methods=["POST"]),
        Route("/account/update", page(desk, g(t.update_account)), methods=["POST"]),
        Route("/account/tokens", page(desk, g(t.create_token)), methods=["POST"]),
        Route("/account/tokens/revoke", page(desk, g(t.revoke_token)), methods=["POST"]),
        *_lobby_routes(desk),
    ]


def _lobby_routes(desk: Desk) -> list[Route]:
    lp = lobby_pages
    return [
        Route("/lobby", page(desk, lp.browse), methods=["GET"]),
        Route("/lobby/solo", page(desk, lp.solo), methods=["POST"]),
        Route("/lobby/{campaign}", page(desk, lp.listing), methods=["GET"]),
        Route("/lobby/{campaign}/take", page(desk, account_pages.guarded(lp.take)), methods=["POST"]),
        Route("/lobby/{campaign}/ask", page(desk, account_pages.guarded(lp.ask)), methods=["POST"]),
        Route("/lobby/{campaign}/leave", page(desk, account_pages.guarded(lp.leave)), methods=["POST"]),
        Route("/c/{campaign}/gm/lobby", page(desk, lp.gm_page), methods=["GET"]),
        Route("/c/{campaign}/gm/lobby/publish", page(desk, lp.gm_publish), methods=["POST"]),
        Route("/c/{campaign}/gm/lobby/start", page(desk, lp.gm_start), methods=["POST"]),
        Route("/c/{campaign}/gm/lobby/decide", page(desk, lp.gm_decide), methods=["POST"]),
        Route("/c/{campaign}/gm/lobby/replace", page(desk, lp.gm_replace), methods=["POST"]),
    ]


def create_app(backend: Backend, settings: WebSettings) -> Starlette:
    desk = Desk(backend, settings)
    routes = [
        Route("/", page(desk, pages.home)),
        Route("/login", page(desk, pages.login_form), methods=["GET"]),
        Route("/login", page(desk, pages.login), methods=["POST"]),
        Route("/logout", page(desk, pages.logout), methods=["POST"]),
        Route("/solo", page(desk, solo_page.create), methods=["POST"]),
        Route("/c/{campaign}", page(desk, pages.campaign)),
        Route("/c/{campaign}/ships/{ship}", page(desk, pages.ship_form)),
        Route("/c/{campaign}/squadron/{ship}", page(desk, pages.squadron_form)),
        Route("/c/{campaign}/orders", page(desk, pages.submit_form), methods=["POST"]),
        Route("/c/{campaign}/orders/text", page(desk, pages.submit_text), methods=["GET", "POST"]),
        Route("/c/{campaign}/orders/preview", page(desk, preview_page.preview_form), methods=["POST"]),
        Route("/c/{campaign}/reports", page(desk, reports_pages.archive)),
        Route("/c/{campaign}/reports/{turn:int}", page(desk, reports_pages.report)),
        Route("/c/{campaign}/reports/{turn:int}/body", page(desk, reports_pages.body)),
        Route("/c/{campaign}/reports/{turn:int}/text", page(desk, reports_pages.text)),
        *_game_master_routes(desk),
        *_account_routes(desk),
        Route("/c/{campaign}/replay", page(desk, replay_pages.replay)),
        Route("/c/{campaign}/replay/all", page(desk, replay_pages.replay_all)),
        Route("/c/{campaign}/replay/truth", page(desk, replay_pages.replay_truth)),
        Route("/c/{campaign}/result", page(desk, result_page.result)),
        Route("/archive", page(desk, archive_pages.archive)),
        Route("/c/{campaign}/notifications", page(desk, notify_page.notifications), methods=["GET", "POST"]),
        Route("/c/{campaign}/away", page(desk, away_page.away), methods=["GET"]),
        Route("/c/{campaign}/away/absence", page(desk, away_page.absence), methods=["POST"]),
        Route("/c/{campaign}/away/standing", page(desk, away_page.standing), methods=["POST"]),
        Route("/c/{campaign}/minister", page(desk, minister.minister), methods=["GET"]),
        Route("/c/{campaign}/minister/stores", page(desk, minister.move_stores), methods=["POST"]),
        Route("/c/{campaign}/minister/officers", page(desk, minister.assign_officers), methods=["POST"]),
        Route("/c/{campaign}/confirm", page(desk, readiness.confirm), methods=["POST"]),
        Route("/c/{campaign}/messages", page(desk, readiness.messages), methods=["GET", "POST"]),
        Route("/help/orders", lambda r: desk.render(r, "help_orders.html")),
        # browsers ask for /favicon.ico whatever the page links: the same small icon
        Route(
            "/favicon.ico",
            lambda r: FileResponse(HERE / "static" / "favicon.svg", media_type="image/svg+xml"),
        ),
        Route("/healthz", lambda r: Response("ok", media_type="text/plain")),
        Mount("/static", StaticFiles(directory=str(HERE / "static")), name="static"),
    ]

    async def http_error(request: Request, exc: Exception) -> Response:
        assert isinstance(exc, HTTPException)
        if exc.status_code == 404:
            return not_found(desk, request)
        title = HTTPStatus(exc.status_code).phrase.capitalize()
        return desk.render(request, "error.html", status=exc.status_code, title=title, message=exc.detail)

    app = Starlette(routes=routes, exception_handlers={HTTPException: http_error})
    app.add_middleware(security.BodyLimit, limit=settings.max_body_bytes)
    app.add_middleware(security.SecurityHeaders)
    app.state.desk = desk
    return app
