"""The OpenAPI schema's refusals: every operation documents the error answers it can give.

drf-spectacular documents only what a view declares, and most views declare their success alone;
yet every API answer that is not a success has the one error shape of ``snapleague/api_errors.py``.
Schemathesis (tests/test_api_schema_fuzz.py) found a client could not tell from the schema that a
list answers 404 for a page past the end or 400 for a filter value that is no id, that a write by
someone not signed in is a 403, or that wrong credentials in an ``Authorization`` header are a 403
on any operation (DRF answers 403, not 401, as session authentication comes first). This hook adds, to each operation that does not say otherwise,
the refusals every operation of its kind can give; what a view declares itself (``refusals`` below,
with the codes it carries) stays as it is.
"""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import OpenApiResponse
from rest_framework import serializers

ERROR_REF = {"$ref": "#/components/schemas/Error"}

# Written where no view says more; the codes are those of snapleague/api_errors.py.
GENERIC = {
    "400": "invalid (``fields`` names each field at fault, or the query parameter), parse_error",
    "403": "not_authenticated (a write by someone not signed in), authentication_failed (an "
    "``Authorization`` header with wrong credentials, on any operation), permission_denied, not_organiser …",
    "404": "not_found: no such object, or not one you may see; for a list, a page past the end",
    "409": "a conflict with the state (the code says which)",
    "415": "unsupported_media_type: send JSON (Content-Type: application/json)",
}
WRITES = {"post", "put", "patch", "delete"}


def _statuses(method: str, operation: dict[str, Any]) -> list[str]:
    """The refusals an operation of this kind can give, whatever the view."""
    if method in WRITES:
        return ["400", "403", "404", "415"]
    found = ["403", "404"]
    if any(parameter.get("in") == "query" for parameter in operation.get("parameters", [])):
        found.append("400")
    return found


def document_refusals(result: dict[str, Any], generator: Any, request: Any, public: bool) -> dict[str, Any]:
    """A drf-spectacular postprocessing hook (SPECTACULAR_SETTINGS["POSTPROCESSING_HOOKS"])."""
    for path, operations in result.get("paths", {}).items():
        if not path.startswith("/api/") or path.startswith("/api/schema/"):
            continue
        for method, operation in operations.items():
            if not isinstance(operation, dict) or "responses" not in operation:
                continue
            responses = operation["responses"]
            for status in _statuses(method, operation):
                responses.setdefault(
                    status,
                    {"content": {"application/json": {"schema": ERROR_REF}}, "description": GENERIC[status]},
                )
            operation["responses"] = dict(sorted(responses.items()))
    return result


class ErrorOutputSerializer(serializers.Serializer[Any]):
    """Every refusal (snapleague/api_errors.py), in the request's language."""

    code = serializers.CharField(help_text="Stable, for programs: round_not_due, not_organiser …")
    message = serializers.CharField(help_text="Translated, for people.")
    fields = serializers.DictField(
        child=serializers.ListField(child=serializers.CharField()),
        help_text="Messages by the input field at fault (an option's name for a stage option).",
    )
    extra = serializers.DictField(help_text="The values the code carries (e.g. ``waiting``: series keys).")

    class Meta:
        ref_name = "Error"


def refusals(**described: str) -> dict[int, OpenApiResponse]:
    """The error responses of an operation, by status, each described by the codes it can carry."""
    return {
        int(code.removeprefix("s")): OpenApiResponse(ErrorOutputSerializer, description=text)
        for code, text in described.items()
    }
