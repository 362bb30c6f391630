"""Who calls: PATE's caller token (L23) and, under mutual TLS, its certificate's URI SAN.

Both are checked before the request is read: the interceptor answers a refused
caller without deserializing anything, and wraps the method so that the URI SAN
is looked at before the request bytes are parsed ("Security between the services").
"""

from __future__ import annotations

import hmac
from collections.abc import Sequence

import grpc
from cryptography import x509

from examples.gitm_land4 import errors

SERVICE = "gitm.v1.LandBridge"


def _refuse(message: str) -> grpc.RpcMethodHandler:
    def refuse(_request: bytes, context: grpc.ServicerContext) -> None:
        failure = errors.caller_rejected()
        failure.message = message
        context.abort_with_status(failure.status())

    return grpc.unary_unary_rpc_method_handler(refuse)


def certificate_uris(context: grpc.ServicerContext) -> list[str]:
    """The URI subject alternative names of the peer's certificate, none without one."""
    uris: list[str] = []
    for pem in context.auth_context().get("x509_pem_cert", []):
        cert = x509.load_pem_x509_certificate(pem)
        try:
            names = cert.extensions.get_extension_for_class(x509.SubjectAlternativeName)
        except x509.ExtensionNotFound:
            continue
        uris.extend(names.value.get_values_for_type(x509.UniformResourceIdentifier))
    return uris


class CallerCheck(grpc.ServerInterceptor):  # type: ignore[misc]
    """x-pate-gitm-token in constant time; several tokens while one changes."""

    def __init__(self, tokens: Sequence[str], client_uri: str = "") -> None:
        self._tokens = [t.encode("utf-8") for t in tokens]
        self._client_uri = client_uri
        self._no_token = _refuse("caller token missing or wrong (x-pate-gitm-token)")
        self._not_pate = _refuse("client certificate: not PATE's (URI SAN)")

    def _accepts(self, given: str) -> bool:
        offered = given.encode("utf-8", "replace")
        matched = False
        for token in self._tokens:
            matched |= hmac.compare_digest(offered, token)
        return matched

    def intercept_service(self, continuation, details):  # type: ignore[no-untyped-def]
        if not details.method.startswith(f"/{SERVICE}/"):
            return continuation(details)
        if self._tokens:
            given = ""
            for key, value in details.invocation_metadata or ():
                if key == "x-pate-gitm-token":
                    given = value if isinstance(value, str) else value.decode("utf-8", "replace")
                    break
            if not (given and self._accepts(given)):
                return self._no_token
        handler = continuation(details)
        if not self._client_uri or handler is None:
            return handler
        return self._guarded(handler)

    def _guarded(self, handler: grpc.RpcMethodHandler) -> grpc.RpcMethodHandler:
        inner, parse = handler.unary_unary, handler.request_deserializer

        def guarded(raw: bytes, context: grpc.ServicerContext):  # type: ignore[no-untyped-def]
            if self._client_uri not in certificate_uris(context):
                return self._not_pate.unary_unary(raw, context)
            return inner(parse(raw), context)

        return grpc.unary_unary_rpc_method_handler(guarded, response_serializer=handler.response_serializer)
