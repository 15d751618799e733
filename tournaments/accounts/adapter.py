"""snapleague's allauth adapter: mails go through the mail queue in the recipient's language, the
e-mail gate spares accounts that never had an address, and a claim link survives the sign-up."""

from __future__ import annotations

from typing import Any

from allauth.account import stages
from allauth.account.adapter import DefaultAccountAdapter
from allauth.account.models import EmailAddress
from django.conf import settings
from django.contrib.sites.shortcuts import get_current_site
from django.http import HttpRequest
from django.utils import translation
from django.utils.http import url_has_allowed_host_and_scheme

from tournaments.accounts.mail import mail_key, mail_queue
from tournaments.accounts.selectors import recipient_language
from tournaments.accounts.services import profile_pending_next_pop


class EmailVerificationStage(stages.EmailVerificationStage):
    """allauth's gate (no log-in before the address is confirmed) for every account that has an
    address on record. Accounts made in /admin/ or by ``createsuperuser`` with none, before
    sign-up existed, log in as before; a sign-up always has one."""

    def handle(self) -> tuple[Any, bool]:
        user = self.login.user
        if (
            user is not None
            and not self.login.signup
            and not EmailAddress.objects.filter(user_id=user.pk).exists()
        ):
            return None, True
        return super().handle()  # type: ignore[no-any-return]


class AccountAdapter(DefaultAccountAdapter):
    def get_login_stages(self) -> list[str]:
        return [
            "tournaments.accounts.adapter.EmailVerificationStage"
            if path == "allauth.account.stages.EmailVerificationStage"
            else path
            for path in super().get_login_stages()
        ]

    def send_mail(self, template_prefix: str, email: str, context: dict[str, Any]) -> None:
        """Render in the recipient's language (their profile's, else the page's) and queue it."""
        request = context.get("request") or getattr(self, "request", None)
        ctx: dict[str, Any] = {"email": email, "current_site": get_current_site(request)}
        ctx.update(context)
        ctx["request"] = request
        language = recipient_language(email) or translation.get_language() or settings.LANGUAGE_CODE
        with translation.override(language):
            message = self.render_mail(template_prefix, email, ctx)
        html = ""
        for content, mimetype in getattr(message, "alternatives", []):
            if mimetype == "text/html":
                html = str(content)
        text = str(message.body)
        mail_queue(
            key=mail_key(template_prefix, email, message.subject, text),
            to=email,
            subject=message.subject,
            text=text,
            html=html,
        )

    def get_login_redirect_url(self, request: HttpRequest) -> str:
        """Back to the claim link the person signed up from, when they confirm in another browser."""
        pending = profile_pending_next_pop(user=request.user)  # type: ignore[arg-type]
        if pending and url_has_allowed_host_and_scheme(pending, allowed_hosts={request.get_host()}):
            return pending
        return super().get_login_redirect_url(request)  # type: ignore[no-any-return]
