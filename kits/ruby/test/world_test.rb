# frozen_string_literal: true

$LOAD_PATH.unshift(File.expand_path("../lib", __dir__))
require "minitest/autorun"
require "sms_emulator_kit/minitest"

# The Minitest module: each test its own world, deleted after it.
class WorldTest < Minitest::Test
  include SmsEmulatorKit::Minitest

  def sms_world_options = { signing_secret: "minitest-secret", balance: 3 }

  def test_a_send_is_charged_to_the_worlds_own_balance_and_delivered
    sent = sms.sms.send_message("27831234567", "hello")
    sms.run_until_idle
    assert_equal "delivered", sms.wait_for(sent["id"], "delivered")["status"]
    assert_equal 2, sms.sms.balance
    assert_equal %w[submitted delivered], sms.deliveries(sent["id"]).map { |payload| payload["status"] }
  end

  def test_the_assertions_answer_what_matched_and_fail_naming_what_the_world_did
    sent = sms.sms.send_message("27831234567", "Your parcel is on its way")
    sms.clock.run_until_idle
    assert_equal sent["id"], assert_sent("27831234567", /parcel/).id
    assert_equal sent["id"], assert_webhook(sent["id"], "delivered").message_id
    missing = assert_raises(Minitest::Assertion) { assert_sent("27830000000") }
    assert_includes missing.message, 'expected a message to 27830000000; the world sent 27831234567: "Your parcel is on its way" (delivered)'
    expired = assert_raises(Minitest::Assertion) { assert_webhook(sent["id"], "expired") }
    assert_includes expired.message, "the world's webhooks: submitted (tries answered ); delivered (tries answered )"
  end

  def test_each_test_starts_in_a_world_of_its_own
    assert_empty sms.messages
    assert_equal 3, sms.sms.balance
  end
end
