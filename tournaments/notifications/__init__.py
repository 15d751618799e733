"""Notifications (issue 25 item 5, docs/notifications.md): one service, three channels."""
