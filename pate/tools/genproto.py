"""Generate the protobuf, gRPC and typing-stub code from ``proto/``.

The generated modules are committed (``pate/v1``, ``gitm/v1``); a test
regenerates them into a temporary folder and fails when they are stale.
Run with ``make proto``.

gitm.v1 imports buf's ``buf/validate/validate.proto`` (its field limits,
docs/gitm.md "Limits").  No copy of that file is kept here: protoc reads it as
a descriptor set made, at each run, from the descriptor the installed
protovalidate package ships (``buf/validate/validate_pb2.py`` registers the same
one at run time), so the limits compile against the rules the validator knows.
"""

from __future__ import annotations

import shutil
import sys
import tempfile
from importlib import resources
from pathlib import Path

from google.protobuf import descriptor_pb2
from grpc_tools import protoc

from buf.validate import validate_pb2

ROOT = Path(__file__).resolve().parents[2]
PROTO = ROOT / "proto"
PACKAGES = ("pate/v1", "gitm/v1")


def proto_files() -> list[Path]:
    return sorted(PROTO.rglob("*.proto"))


def validate_set(folder: Path) -> Path:
    """A FileDescriptorSet holding buf/validate/validate.proto, for ``--descriptor_set_in``."""
    fds = descriptor_pb2.FileDescriptorSet()
    fds.file.add().ParseFromString(validate_pb2.serialized())
    path = folder / "buf-validate.binpb"
    path.write_bytes(fds.SerializeToString())
    return path


def generate(out: Path) -> None:
    include = resources.files("grpc_tools") / "_proto"
    plugin_dir = Path(sys.executable).parent
    with tempfile.TemporaryDirectory() as imported:
        _protoc(out, include, plugin_dir, validate_set(Path(imported)))
    for pkg in PACKAGES:
        (out / pkg / "__init__.py").write_text('"""Generated from proto/; do not edit."""\n')


def _protoc(out: Path, include: object, plugin_dir: Path, validate: Path) -> None:
    args = [
        "protoc",
        f"-I{PROTO}",
        f"-I{include}",
        # google/protobuf/*.proto from the include path, buf's validate.proto from this set
        f"--descriptor_set_in={validate}",
        f"--python_out={out}",
        f"--grpc_python_out={out}",
        f"--plugin=protoc-gen-mypy={plugin_dir / 'protoc-gen-mypy'}",
        f"--plugin=protoc-gen-mypy_grpc={plugin_dir / 'protoc-gen-mypy_grpc'}",
        f"--mypy_out={out}",
        f"--mypy_grpc_out={out}",
        *(str(p.relative_to(PROTO)) for p in proto_files()),
    ]
    if protoc.main(args) != 0:
        raise SystemExit("protoc failed")


def generated_files(base: Path) -> dict[str, bytes]:
    return {
        str(p.relative_to(base)): p.read_bytes()
        for pkg in PACKAGES
        for p in sorted((base / pkg).glob("*"))
        if p.is_file() and p.suffix in (".py", ".pyi")
    }


def main() -> int:
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp)
        generate(out)
        for pkg in PACKAGES:
            target = ROOT / pkg
            for old in target.glob("*_pb2*"):
                old.unlink()
            target.mkdir(parents=True, exist_ok=True)
            for src in (out / pkg).iterdir():
                shutil.copy2(src, target / src.name)
    print(f"generated {len(proto_files())} proto files into {', '.join(PACKAGES)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
