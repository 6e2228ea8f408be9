"""The sample project's settings for the kit: the app's own signing secret, and its own webhook handler."""

import pytest
from pytest_sms_emulator import wsgi_handler

from reminders import Reminders

SECRET = "the-reminder-service-secret"


@pytest.fixture
def sms_signing_secret():
    return SECRET  # each world's account signs with the secret the app is configured with


@pytest.fixture
def reminders():
    return Reminders()


@pytest.fixture
def sms_app_webhook(reminders):
    # The world's webhooks go to the app's own handler, called in process; the kit keeps a copy of each delivery.
    return wsgi_handler(reminders.webhook, "/sms/status")


@pytest.fixture
def app(sms, reminders):
    reminders.configure(sms.base_url, sms.api_key, SECRET)
    return reminders
