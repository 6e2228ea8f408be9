# frozen_string_literal: true

$LOAD_PATH.unshift(File.expand_path("../lib", __dir__))
require "minitest/autorun"
require "open3"
require "tmpdir"
require "sms_emulator_kit/minitest"

# The Minitest cost assertions fail on a UCS-2 text with the emulator's breakdown and pass on its GSM-7 fix; the budgets
# fail a test, or the run at its end, that spent more.
class CostTest < Minitest::Test
  include SmsEmulatorKit::Minitest

  CURLY = "Your parcel’s ready at the Main Street locker: collect it by Friday, code 4411."
  FIXED = "Your parcel's ready at the Main Street locker: collect it by Friday, code 4411."
  BREAKDOWN = "UCS-2, 79 UTF-16 units, 2 segments: #{CURLY.to_json}\n  position 12: \"’\" U+2019 RIGHT SINGLE QUOTATION MARK, " \
              "use \"'\"\n  with those replaced: GSM-7, 1 segment"

  def test_assert_stays_gsm7_fails_on_a_curly_apostrophe_with_the_breakdown_and_passes_on_the_fix
    failure = assert_raises(Minitest::Assertion) { assert_stays_gsm7(CURLY) }
    assert_equal "expected the text to stay GSM-7; it is #{BREAKDOWN}", failure.message
    assert_equal "GSM-7", assert_stays_gsm7(FIXED).encoding
    assert_equal 79, assert_stays_gsm7(sms.sms.send_message("27831234567", FIXED)).units
  end

  def test_assert_fits_segments_fails_on_a_ucs2_text_past_its_segments_with_the_breakdown_and_passes_on_the_fix
    failure = assert_raises(Minitest::Assertion) { assert_fits_segments(CURLY, 1) }
    assert_equal "expected the text to fit 1 segment; it is #{BREAKDOWN}", failure.message
    assert_equal 1, assert_fits_segments(FIXED, 1).segments
  end

  def test_assert_cost_at_most_fails_when_the_world_spent_more_naming_its_top_spenders
    sms.sms.send_message("27831234567", CURLY)
    failure = assert_raises(Minitest::Assertion) { assert_cost_at_most(1) }
    assert_equal "expected this world to cost at most 1 credit; it spent 2 credits on 1 message. Top spenders:\n  - 2 credits: to 27831234567: " \
                 "\"Your parcel’s ready at the Main Street locker: collect it by…\" (UCS-2, 2 segments × 1 recipient; UCS-2 forced by \"’\" at 12)",
                 failure.message
    assert_equal 2, assert_cost_at_most(2).credits
  end

  def run_fixture(env)
    Dir.mktmpdir("sms-minitest-budgets-") do |folder|
      env = { "SMS_EMULATOR_URL" => SmsEmulatorKit::Emulator.shared.origin, "SMS_EMULATOR_TIMELINE_DIR" => folder }.merge(env)
      Open3.capture2e(env, Gem.ruby, File.expand_path("fixtures/spending_test.rb", __dir__))
    end
  end

  def test_a_test_over_its_sms_cost_budget_fails_and_a_run_over_its_cost_budget_fails_at_its_end_naming_the_top_spenders
    output, status = run_fixture("TEST_BUDGET" => "3")
    assert_equal 1, status.exitstatus, output
    assert_match(/^SpendingTest#test_a_parcel_notice \[.*\]:\nexpected this world to cost at most 3 credits; it spent 4 credits on 1 message\./, output)
    assert_includes output, "3 runs, 7 assertions, 1 failures, 0 errors, 0 skips"
    output, status = run_fixture("SUITE_BUDGET" => "4")
    assert_equal 1, status.exitstatus, output
    assert_includes output, "3 runs, 4 assertions, 0 failures, 0 errors, 0 skips"
    assert_includes output, "sms-emulator: the suite spent 5 credits, over its budget of 4 credits. Top spenders:\n" \
                            "  - SpendingTest#test_a_parcel_notice: 4 credits; its costliest: 4 credits: to 27831234567, 27831234568: "
    assert_includes output, "\n  - SpendingTest#test_a_reminder: 1 credit; its costliest: 1 credit: to 27831234567: \"Reminder: 09:00\" " \
                            "(GSM-7, 1 segment × 1 recipient)\n  - SpendingTest#test_nothing: 0 credits\n"
  end

  def test_a_negative_test_or_run_budget_is_refused_naming_what_a_budget_takes
    output, status = run_fixture("TEST_BUDGET" => "-1")
    assert_equal 1, status.exitstatus, output
    assert_includes output, "3 runs, 4 assertions, 0 failures, 3 errors, 0 skips"
    assert_includes output, "sms-emulator: sms_cost_budget takes a whole number of credits from 0, not -1"
    output, status = run_fixture("SUITE_BUDGET" => "-1")
    refute status.success?, output
    assert_includes output, "sms-emulator: SmsEmulatorKit::Minitest.cost_budget takes a whole number of credits from 0, not -1"
  end

  def test_a_run_within_its_budgets_or_without_any_passes
    [{ "SUITE_BUDGET" => "5", "TEST_BUDGET" => "4" }, {}].each do |env|
      output, status = run_fixture(env)
      assert status.success?, output
      refute_includes output, "the suite spent"
    end
  end
end
