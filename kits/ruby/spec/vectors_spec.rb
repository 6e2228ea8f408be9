# frozen_string_literal: true

require_relative "spec_helper"

RSpec.describe "the shared test vectors (TestVectors: the gem's copy, else the checkout's test-vectors/)" do
  def cases(file)
    SmsEmulatorKit::TestVectors.read(file)["cases"].tap { |all| expect(all).not_to be_empty }
  end

  it "signs every case as the API does" do
    cases("signing.json").each do |vector|
      expect(SmsEmulatorKit::Signing.canonical_string(vector["fields"])).to eq(vector["canonical"]), vector["name"]
      expect(SmsEmulatorKit::Signing.sign(vector["fields"], vector["secret"])).to eq(vector["signature"]), vector["name"]
    end
  end

  it "writes every schedule as the API takes it, rounding up" do
    cases("schedule.json").each do |vector|
      expect(SmsEmulatorKit::Schedule.format(Time.iso8601(vector["instant"]), vector["offset"])).to eq(vector["schedule"]), vector["name"]
    end
  end

  it "compares a schedule answered with seconds with its own text" do
    expect(SmsEmulatorKit::Schedule.format("2026-11-22T09:30:00+02:00")).to eq(SmsEmulatorKit::Schedule.format(Time.utc(2026, 11, 22, 7, 30)))
  end

  it "reads every webhook payload" do
    cases("webhooks.json").each do |vector|
      expect(vector["payload"]).to include("id", "type", "status")
      expect(%w[sms sms-reply]).to include(vector["payload"]["type"])
    end
  end

  it "costs every segment case as the vectors say when asked through the kit" do
    # The kit counts nothing itself: a text mangled on its way (a surrogate pair, NFD, CRLF, an escape) miscounts here.
    control = SmsEmulatorKit::Emulator.shared.control
    cases("segments.json").each do |vector|
      cost = control.cost({ "text" => vector["text"] })
      expect([cost.encoding, cost.units, cost.segments, cost.triggers.first&.char])
        .to eq(vector.values_at("encoding", "units", "segments", "ucs2Trigger")), vector["name"]
    end
  end
end
