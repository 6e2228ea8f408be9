"""The kit's catcher keeps only what the emulator posted: a post without the world's Webhook-Signature is answered 401,
never counted nor passed to the app, and reported; a body larger than the emulator's own largest is refused unread."""

import hashlib
import hmac
import http.client
import socket
import urllib.parse

import pytest


def post(url, body, headers):
    parts = urllib.parse.urlsplit(url)
    connection = http.client.HTTPConnection(parts.hostname, parts.port, timeout=10)
    try:
        connection.request("POST", parts.path, body=body, headers=headers)
        answer = connection.getresponse()
        return answer.status
    finally:
        connection.close()


def signature(secret, body):
    return hmac.new(secret.encode(), body, hashlib.sha256).hexdigest()


PAYLOAD = b'{"id": "c7a1", "type": "sms", "status": "delivered", "recipient": "27831234567"}'


def test_an_unsigned_or_wrongly_signed_post_is_answered_401_and_not_counted(sms):
    json = {"Content-Type": "application/json"}
    assert post(sms.catcher.url, PAYLOAD, json) == 401
    assert post(sms.catcher.url, PAYLOAD, {**json, "Webhook-Signature": signature("not-the-secret", PAYLOAD)}) == 401
    assert post(sms.catcher.url, PAYLOAD, {**json, "Webhook-Signature": "sha256=" + "0" * 64}) == 401
    assert sms.webhooks() == []
    assert sms.catcher.received == []
    assert [forged.status for forged in sms.forged_webhooks()] == [401, 401, 401]
    with pytest.raises(AssertionError, match="no webhook matches"):
        sms.assert_webhook(id="c7a1", status="delivered")


def test_a_post_signed_with_the_worlds_webhook_secret_is_kept(sms):
    signed = {"Content-Type": "application/json", "Webhook-Signature": signature(sms.webhook_signing_secret, PAYLOAD)}
    assert post(sms.catcher.url, PAYLOAD, signed) == 200
    assert sms.webhooks() == [{"id": "c7a1", "type": "sms", "status": "delivered", "recipient": "27831234567"}]
    assert sms.forged_webhooks() == []


def test_the_emulators_own_deliveries_are_counted_and_none_is_refused(sms):
    sent = sms.client.send("27831234567", "Really delivered")
    sms.wait_for(sent["id"], "delivered")
    assert [payload["status"] for payload in sms.webhooks()] == ["submitted", "delivered"]
    assert sms.forged_webhooks() == []
    assert sms.webhook_signing_secret


@pytest.mark.sms(webhook_signing_secret="whsec_the_apps_own")
def test_a_world_takes_the_webhook_secret_the_app_verifies_with(sms):
    assert sms.webhook_signing_secret == "whsec_the_apps_own"
    sent = sms.client.send("27831234567", "Signed with the app's secret")
    sms.wait_for(sent["id"], "delivered")
    caught = sms.catcher.received[-1]
    assert caught.headers["webhook-signature"] == signature("whsec_the_apps_own", caught.body)


def test_a_flood_of_forged_posts_is_counted_but_only_the_first_100_kept_and_without_their_bodies(sms):
    forged = b"x" * 64 * 1024
    for _ in range(101):
        assert post(sms.catcher.url, forged, {"Webhook-Signature": "0" * 64}) == 401
    assert sms.catcher.refused_count == 101
    assert len(sms.forged_webhooks()) == 100
    assert {(caught.body, caught.text, caught.status) for caught in sms.forged_webhooks()} == {(b"", "", 401)}
    assert sms.webhooks() == []


def test_a_forged_post_never_reaches_the_apps_handler(sms_world):
    seen = []
    world = sms_world(app_webhook=lambda request: seen.append(request) or 200)
    assert post(world.catcher.url, PAYLOAD, {"Content-Type": "application/json"}) == 401
    assert seen == [] and len(world.forged_webhooks()) == 1


def test_a_body_larger_than_the_emulators_largest_is_refused_before_it_is_read(sms, sms_emulator):
    largest = sms_emulator.control.limits().max_body_size
    parts = urllib.parse.urlsplit(sms.catcher.url)
    declared = 100 * 1024 * 1024
    with socket.create_connection((parts.hostname, parts.port), timeout=10) as raw:
        raw.sendall(
            f"POST {parts.path} HTTP/1.1\r\nHost: {parts.netloc}\r\nContent-Type: application/json\r\n"
            f"Content-Length: {declared}\r\n\r\n".encode()
            + b"{" * 1024
        )
        # Only 1 KiB of the declared 100 MiB was sent: an answer now means the catcher did not wait to read the rest.
        answer = raw.makefile("rb").readline()
    assert answer.startswith(b"HTTP/1.1 413")
    assert sms.webhooks() == []
    assert [forged.status for forged in sms.forged_webhooks()] == [413]
    assert sms.forged_webhooks()[0].body == b""
    assert largest < declared


def test_an_app_url_that_does_not_answer_is_named_without_its_password():
    from pytest_sms_emulator.catcher import CaughtRequest, forward_to_url

    status, body, _ = forward_to_url("http://hooks:pw-hidden@127.0.0.1:1/sms", CaughtRequest("/w", {}, "{}", b"{}"))
    assert status == 502
    assert b"pw-hidden" not in body and b"http://hooks:***@127.0.0.1:1/sms" in body
