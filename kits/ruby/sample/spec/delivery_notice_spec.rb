# frozen_string_literal: true

require "sms_emulator_kit/rspec"
require_relative "../lib/notifier"
require_relative "../lib/status_receiver"

RSpec.describe Notifier, :sms do
  before(:all) { @receiver = StatusReceiver.new }
  after(:all) { @receiver.stop }

  let(:sms_world_options) { { webhook_url: @receiver.url, signing_secret: "shop-secret", balance: 50 } }

  it "keeps the delivered status of its notice" do
    id = Notifier.new(sms.control.origin, sms.api_key, "shop-secret").parcel_shipped("27831234567", "A-1001")
    sms.clock.run_until_idle
    expect(sms).to have_sent(to: "27831234567", text: "A-1001", status: "delivered")
    expect(sms).to have_received_webhook(status: "delivered", message: id, answered: 200)
    expect(@receiver.statuses).to eq(id => "delivered")
    expect(sms.sms.balance).to eq(49)
  end
end
