"""The browser fixtures of the tournament browser tests (uvicorn in a thread, headless Chromium)."""
