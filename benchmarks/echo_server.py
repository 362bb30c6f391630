"""A bare grpcio echo server: the yardstick the order desk is measured against."""

from __future__ import annotations

import asyncio
import sys

import grpc


def _echo(request: bytes, context: object) -> bytes:
    return request


async def serve(port: int) -> None:
    server = grpc.aio.server()
    handler = grpc.method_handlers_generic_handler(
        "bench.Echo", {"Echo": grpc.unary_unary_rpc_method_handler(_echo)}
    )
    server.add_generic_rpc_handlers((handler,))
    server.add_insecure_port(f"127.0.0.1:{port}")
    await server.start()
    print("ready", flush=True)
    await server.wait_for_termination()


if __name__ == "__main__":
    asyncio.run(serve(int(sys.argv[1])))
