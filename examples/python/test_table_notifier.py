"""The table notifier's tests, with the pytest kit's `sms` fixture: each test its own account on its own test clock."""

import pytest

from table_notifier import TableNotifier


@pytest.fixture
def notifier(sms):
    return TableNotifier(sms.base_url, sms.api_key, sms.signing_secret)


def test_a_guest_is_texted_and_the_text_is_delivered(sms, notifier):
    # An apostrophe, brackets, an exclamation mark and a tilde: the signature must encode them as RFC 3986 does.
    message_id = notifier.table_ready("27831234567", "O'Brien", 2, 17)
    sms.assert_sent(to="27831234567", text="Hi O'Brien! Your table (for 2) is ready ~ see you in 5 min")
    sms.wait_for(message_id).to_reach("delivered")
    sms.assert_webhook(id=message_id, status="delivered")


def test_a_wrong_signing_secret_is_refused_and_nothing_is_sent(sms):
    wrong = TableNotifier(sms.base_url, sms.api_key, "not-the-secret")
    with pytest.raises(RuntimeError, match="SIGNATURE_MISMATCH"):
        wrong.table_ready("27831234567", "Ada", 4, 18)
    assert sms.messages() == []


def test_an_outage_reaches_the_app_as_an_error(sms, notifier):
    sms.scenario({"faults": [{"match": {"operation": "send"}, "error": {"status": 503}, "count": 1}]})
    with pytest.raises(RuntimeError, match="INTERNAL_SERVER_ERROR"):
        notifier.table_ready("27831234567", "Grace", 3, 19)
    assert notifier.table_ready("27831234567", "Grace", 3, 19)
