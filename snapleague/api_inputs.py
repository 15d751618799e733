"""What every API view reads a body with: the bounds of ids and numbers, and ``validated_input``."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers
from rest_framework.request import Request

# The largest id (a BigAutoField) and the largest number (a PositiveIntegerField: 2**31 - 1 is safe on
# every database) a body may carry. A bigger one was a 500 (found by tests/test_api_schema_fuzz.py):
# SQLite cannot bind an integer past 64 bits (OverflowError), PostgreSQL refuses to store a number
# past its column's range; now it is a 400 naming the field.
MAX_ID = 2**63 - 1


MAX_NUMBER = 2**31 - 1


def validated_input(
    serializer_class: type[serializers.Serializer[Any]], request: Request, *, partial: bool = False
) -> dict[str, Any]:
    """The request's body as ``serializer_class`` reads it (``partial``: only the fields sent are
    required), a new dict the caller may change. Raises ValidationError: a 400 with field errors."""
    serializer = serializer_class(data=request.data, partial=partial)
    serializer.is_valid(raise_exception=True)
    return dict(serializer.validated_data)
