"""Schemathesis hooks for the Open Market documents (loaded through SCHEMATHESIS_HOOKS).

What a JSON Schema cannot say, and without which valid requests would be refused or answers
left unchecked:
- an image part must be a real image by its first bytes, with a filename: the image media types
  generate lists of small real images (JPEG, PNG, GIF, WebP) instead of random bytes;
- rules between fields and stored state: a discount at most the price, a PATCH judged on the
  product as it would be after the change (a lower price under the stored discount, or a
  `thumbnail_id` of another product, is a 400). Positive cases that break such a rule are not
  valid data, so they are dropped here; negative cases are left as generated;
- a multipart part's name stands in a header, so it cannot hold control characters;
- valid cases carry the run's credentials (vendor secret, v1 password) in every phase;
- `text/plain` answers (the health check, the product secret, the delete path) are read as text,
  so their schemas are checked too.
"""
import os
import struct
import zlib

import schemathesis
from hypothesis import strategies as st
from openapi_schema_validator import OAS30Validator


def _png(width: int, height: int) -> bytes:
    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
    rows = b"".join(b"\x00" + b"\x80\x40\x20" * width for _ in range(height))
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b""))


GIF = b"GIF89a\x01\x00\x01\x00\x80\x00\x00\x00\x00\x00\xff\xff\xff!\xf9\x04\x01\x00\x00\x00\x00,\x00\x00\x00\x00\x01\x00\x01\x00\x00\x02\x02D\x01\x00;"
# Start of image, a JFIF header and a baseline frame header of 1×1: enough for any reader of sizes.
JPEG = (b"\xff\xd8\xff\xe0\x00\x10JFIF\x00\x01\x01\x00\x00\x01\x00\x01\x00\x00"
        b"\xff\xc0\x00\x0b\x08\x00\x01\x00\x01\x01\x01\x11\x00\xff\xd9")
# A lossless WebP of 1×1.
WEBP = b"RIFF\x1a\x00\x00\x00WEBPVP8L\x0d\x00\x00\x00/\x00\x00\x00\x10\x07\x10\x11\x11\x88\x88\xfe\x07\x00"


def _images(*samples: bytes):
    # A list, not one value: the property is an array of image parts, and schemathesis gives
    # each item of a list of binary parts a filename, which the API requires of an image part.
    return st.lists(st.sampled_from(samples), min_size=1, max_size=5)


schemathesis.openapi.media_type("image/png", _images(_png(1, 1), _png(3, 2)))
schemathesis.openapi.media_type("image/jpeg", _images(JPEG))
schemathesis.openapi.media_type("image/gif", _images(GIF))
schemathesis.openapi.media_type("image/webp", _images(WEBP))


@schemathesis.deserializer("text/plain")
def deserialize_text(context, response):
    """The health check, the product secret and the delete path are text/plain: checked as strings."""
    return response.content.decode("utf-8")


def _number(value):
    """A JSON number, or a v1 form's decimal text, as a number; None when it is neither."""
    if isinstance(value, bool):
        return None
    if isinstance(value, (int, float)):
        return value
    if isinstance(value, str) and value.lstrip("-").isdigit():
        return int(value)
    return None


def _discount_fits(fields: dict) -> bool:
    price, discount = _number(fields.get("price")), _number(fields.get("discounted_price"))
    return price is None or discount is None or discount <= price


def _inline(node, root, depth=0):
    """The schema with its local `$ref`s replaced by what they name (the documents have no cycles)."""
    if isinstance(node, dict):
        if "$ref" in node and depth < 32:
            target = root
            for key in node["$ref"].lstrip("#/").split("/"):
                target = target[key]
            return _inline(target, root, depth + 1)
        return {key: _inline(value, root, depth) for key, value in node.items()}
    if isinstance(node, list):
        return [_inline(value, root, depth) for value in node]
    return node


def _without_bytes(value):
    if isinstance(value, (bytes, bytearray)):
        return ""
    if isinstance(value, list):
        return [_without_bytes(item) for item in value]
    return value


def _conforms(operation, media_type: str, body: dict) -> bool:
    raw = operation.schema.raw_schema
    definition = operation.definition.raw if hasattr(operation.definition, "raw") else operation.definition
    request = _inline(definition.get("requestBody", {}), raw)
    schema = request.get("content", {}).get(media_type.split(";")[0].strip(), {}).get("schema")
    if schema is None:
        return True
    instance = {name: _without_bytes(value) for name, value in body.items()}
    return OAS30Validator(schema).is_valid(instance)


def _header_safe(name: str) -> bool:
    """Whether a part name can stand in a part's Content-Disposition: no control character (RFC 9110
    field values), which the API refuses as malformed part headers (400)."""
    return not any(ord(c) < 0x20 and c != "\t" or ord(c) == 0x7F for c in name)


@schemathesis.hook
def filter_case(context, case) -> bool:
    meta = case.meta
    if meta is None or not meta.generation.mode.is_positive or not isinstance(case.body, dict):
        return True
    body = case.body
    method = case.operation.method.upper()
    if case.media_type and case.media_type.startswith("multipart/"):
        # Unknown parts are allowed (and ignored), but their names must be valid in a header.
        if not all(_header_safe(name) for name in body):
            return False
        # The coverage phase's "example value" of a multipart body sends every part empty
        # (`params` as "", `price` as "") while calling the case valid: only cases that do
        # conform to the schema count as valid data.
        if not _conforms(case.operation, case.media_type, body):
            return False
    if method == "POST" and isinstance(body.get("params"), dict):   # v2 register
        return _discount_fits(body["params"])
    if method == "POST":                                              # v1 register
        return _discount_fits(body)
    if method == "PATCH":
        # The stored product is unknown here: keep the edits valid on any product.
        if "thumbnail_id" in body:
            return False
        if ("price" in body) != ("discounted_price" in body):
            return False
        return _discount_fits(body)
    return True


@schemathesis.hook
def map_case(context, case):
    """Valid cases carry this run's credentials in every phase: the configured overrides do not
    reach the stateful phase's bodies, and its register → edit → delete chains need them.
    Negative cases keep what was generated, so a broken secret stays broken."""
    meta = case.meta
    if meta is None or not meta.generation.mode.is_positive or not isinstance(case.body, dict):
        return case
    secret, password = os.environ.get("OPENMARKET_SECRET"), os.environ.get("OPENMARKET_PASSWORD")
    if password and "password" in case.body:
        case.body["password"] = password
    if secret and "secret" in case.body:
        case.body["secret"] = secret
    if secret and isinstance(case.body.get("params"), dict):
        case.body["params"]["secret"] = secret
    return case
