"""Accounts: a person's own account beyond what django-allauth keeps (display name, language, the
mails sent to them), their data as JSON, and deleting the account (docs/accounts.md)."""
