# frozen_string_literal: true

require "open3"
require "tmpdir"
require_relative "spec_helper"

CURLY = "Your parcel’s ready at the Main Street locker: collect it by Friday, code 4411."
FIXED = "Your parcel's ready at the Main Street locker: collect it by Friday, code 4411."
BREAKDOWN = "UCS-2, 79 UTF-16 units, 2 segments: #{CURLY.to_json}\n  position 12: \"’\" U+2019 RIGHT SINGLE QUOTATION MARK, use \"'\"\n" \
            "  with those replaced: GSM-7, 1 segment"
CURLY_LINE = "\"Your parcel’s ready at the Main Street locker: collect it by…\" (UCS-2, 2 segments × 2 recipients; UCS-2 forced by \"’\" at 12)"

RSpec.describe "the cost matchers", :sms do
  it "stay_gsm7 fails on a curly apostrophe naming its position, code point and fix" do
    expect { expect(CURLY).to stay_gsm7 }
      .to raise_error(RSpec::Expectations::ExpectationNotMetError, "expected the text to stay GSM-7; it is #{BREAKDOWN}")
  end

  it "stay_gsm7 passes on the fix and reads a message the kit answered" do
    expect(FIXED).to stay_gsm7
    expect(sms.sms.send_message("27831234567", FIXED)).to stay_gsm7
    expect { expect(sms.sms.send_message("27831234567", CURLY)).to stay_gsm7 }.to raise_error(/U\+2019/)
  end

  it "fit_segments fails on a UCS-2 text past its segments with the breakdown, and passes on the fix" do
    expect { expect(CURLY).to fit_segments(1) }
      .to raise_error(RSpec::Expectations::ExpectationNotMetError, "expected the text to fit 1 segment; it is #{BREAKDOWN}")
    expect(CURLY).to fit_segments(2)
    expect(FIXED).to fit_segments(1)
  end

  it "cost_at_most fails when the world spent more, naming its top spenders, and passes within the budget" do
    sms.sms.send_message(%w[27831234567 27831234568], CURLY)
    sms.sms.send_message("27831234567", "Reminder: 09:00")
    expect { expect(sms).to cost_at_most(4) }.to raise_error(
      RSpec::Expectations::ExpectationNotMetError,
      "expected this world to cost at most 4 credits; it spent 5 credits on 2 messages. Top spenders:\n" \
      "  - 4 credits: to 27831234567, 27831234568: #{CURLY_LINE}\n" \
      "  - 1 credit: to 27831234567: \"Reminder: 09:00\" (GSM-7, 1 segment × 1 recipient)",
    )
    expect(sms).to cost_at_most(5)
  end
end

RSpec.describe "the cost budgets" do
  def rspec(fixture, env = {})
    env = { "SMS_EMULATOR_URL" => SmsEmulatorKit::Emulator.shared.origin }.merge(env)
    Dir.mktmpdir("sms-ruby-budgets-") do |folder|
      Open3.capture2e(env.merge("SMS_EMULATOR_TIMELINE_DIR" => folder), Gem.ruby, "-S", "rspec", File.expand_path("fixtures/#{fixture}", __dir__))
    end
  end

  it "fails an example over its cost_budget with its world's top spenders, and passes one within" do
    output, status = rspec("cost_budget_examples.rb")
    expect(status.exitstatus).to eq(1), output
    expect(output).to include("2 examples, 1 failure")
    expect(output).to include("1) parcel notices go over the group's budget with a curly apostrophe\n")
    expect(output).to include("expected this world to cost at most 1 credit; it spent 2 credits on 1 message. Top spenders:\n" \
                              "         - 2 credits: to 27831234567: #{CURLY_LINE.sub('2 recipients', '1 recipient')}")
  end

  it "fails a run over config.sms_cost_budget at its end, naming the examples that spent most" do
    output, status = rspec("spending_examples.rb", "SUITE_BUDGET" => "4")
    expect(status.exitstatus).to eq(1), output
    expect(output).to include("3 examples, 0 failures, 1 error occurred outside of examples")
    expect(output).to include("sms-emulator: the suite spent 5 credits, over its budget of 4 credits. Top spenders:\n" \
                              "    - spec/fixtures/spending_examples.rb::sends send a parcel notice: 4 credits; its costliest: 4 credits: " \
                              "to 27831234567, 27831234568: #{CURLY_LINE}\n" \
                              "    - spec/fixtures/spending_examples.rb::sends send a reminder: 1 credit; its costliest: 1 credit: to 27831234567: " \
                              "\"Reminder: 09:00\" (GSM-7, 1 segment × 1 recipient)\n" \
                              "    - spec/fixtures/spending_examples.rb::sends send nothing: 0 credits\n")
  end

  it "fails an example whose cost_budget is negative, text or a fraction, and a run whose suite budget is negative, naming what a budget takes" do
    output, status = rspec("bad_budget_examples.rb")
    expect(status.exitstatus).to eq(1), output
    expect(output).to include("3 examples, 3 failures")
    ["-1", '"3"', "2.5"].each do |given|
      expect(output).to include("sms-emulator: cost_budget: takes a whole number of credits from 0, not #{given}")
    end
    output, status = rspec("spending_examples.rb", "SUITE_BUDGET" => "-1")
    expect(status.exitstatus).to eq(1), output
    expect(output).to include("sms-emulator: config.sms_cost_budget takes a whole number of credits from 0, not -1")
  end

  it "passes a run within its budget, or without one" do
    [{ "SUITE_BUDGET" => "5" }, {}].each do |env|
      output, status = rspec("spending_examples.rb", env)
      expect(status).to be_success, output
      expect(output).not_to include("the suite spent")
    end
  end
end
