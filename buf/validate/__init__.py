"""Import path of buf's validate.proto as protoc emits it (see validate_pb2.py)."""
