"""Import path of buf's validate.proto as protoc emits it (see buf/validate/validate_pb2.py)."""
