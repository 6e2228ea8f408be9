# frozen_string_literal: true

require_relative "spec_helper"

RSpec.describe "a world per example whose webhooks reach the app's own handler", :sms do
  before(:all) { @app = AppServer.new(fail_first: true) }
  after(:all) { @app.stop }

  let(:sms_world_options) { { webhook_url: @app.url, signing_secret: "the-apps-own-secret", start_time: "2026-11-23T08:00:00+02:00" } }

  it "holds a scheduled send until the world's clock reaches it, then delivers it" do
    sent = sms.sms.send_message("27831234567", "Your appointment is tomorrow", schedule: Time.iso8601("2026-11-23T09:00:00+02:00"))
    expect(SmsEmulatorKit::Schedule.format(sent["schedule"])).to eq("2026-11-23T09:00+02:00")
    sms.advance("30m")
    expect(sms.deliveries(sent["id"])).to eq([])
    sms.advance(3_600_000)
    expect(sms.wait_for(sent["id"], "delivered", within: "1h")["status"]).to eq("delivered")
    expect(sms).to have_sent(to: "27831234567", text: /appointment/, status: "delivered")
    expect(sms).to have_received_webhook(status: "delivered", message: sent["id"], answered: 200)
  end

  it "retries a webhook the app answered 500, and the app's own handler gets every try" do
    sent = sms.sms.send_message(["27831234567"], "Your parcel is on its way")
    sms.run_until_idle("1d")
    events = sms.webhooks(sent["id"])
    expect(events.size).to eq(2)
    events.each do |event|
      expect(event["state"]).to eq("delivered")
      expect(event["attempts"].map { |attempt| attempt["status"] }).to eq([500, 200])
      tries = @app.posts.select { |post| post["event"] == event["id"] }
      expect(tries.map { |post| post["attempt"] }).to eq([1, 2])
      expect(JSON.parse(tries.last["body"])).to eq(event["payload"])
    end
  end

  it "shows a network fault as a transport error, and the next send goes through" do
    sms.use_scenario({ "version" => 1, "faults" => [{ "match" => { "operation" => "send" }, "network" => "reset", "count" => 1 }] })
    expect { sms.sms.send_message("27831234567", "first try") }.to raise_error(SmsEmulatorKit::ApiError) { |error| expect(error.code).to eq("NETWORK_ERROR") }
    sent = sms.sms.send_message("27831234567", "second try")
    expect(sms.messages.map { |message| message["id"] }).to eq([sent["id"]])
  end

  it "finds a message by its client reference, and none for an unknown one" do
    sms.sms.send_message("27831234567", "Order A-1 is packed", client_reference: "A-1")
    shipped = sms.sms.send_message("27831234567", "Order A-2 is on its way", client_reference: "A-2")
    expect(sms.message_by_reference("A-2").id).to eq(shipped["id"])
    expect(sms.message_by_reference("A-2").client_reference).to eq("A-2")
    expect(sms.message_by_reference("A-3")).to be_nil
  end

  it "moves only its own clock, and next runs one queued event" do
    start = sms.clock.now
    sms.clock.advance("15m")
    expect(sms.now).to eq(start + 900)
    sms.sms.send_message("27831234567", "one step at a time")
    expect(sms.clock.next.run.fired).to eq(1)
    sms.clock.set("2026-11-24T08:00:00+02:00")
    expect(sms.clock.now).to eq(Time.iso8601("2026-11-24T08:00:00+02:00"))
  end

  it "sends its webhooks to a handler attached after the world exists, and the log keeps the kit's copy" do
    late = SmsEmulatorKit::World.create(sms.control, name: "late handler")
    sent = late.sms.send_message("27831234567", "before the handler")
    late.forward_to(@app.url)
    late.clock.run_until_idle("1d")
    events = late.webhook_log(message: sent["id"])
    expect(events.map(&:state)).to eq(%w[delivered delivered])
    posted = @app.posts.map { |post| post["event"] }.select { |id| events.map(&:id).include?(id) }.uniq
    expect(posted).to eq(events.map(&:id))
  ensure
    late&.close
  end

  it "signs its webhooks with its own webhook secret, given or generated" do
    own = SmsEmulatorKit::World.create(sms.control, name: "own webhook secret", webhook_url: @app.url, webhook_signing_secret: "whsec-the-apps-own")
    expect(own.webhook_signing_secret).to eq("whsec-the-apps-own")
    sent = own.sms.send_message("27831234567", "signed for the app")
    own.clock.run_until_idle("1d")
    ids = own.webhook_log(message: sent["id"]).map(&:id)
    posts = @app.posts.select { |post| ids.include?(post["event"]) }
    expect(posts).not_to be_empty
    posts.each { |post| expect(post["signature"]).to eq(OpenSSL::HMAC.hexdigest("SHA256", "whsec-the-apps-own", post["body"])) }
    expect(sms.webhook_signing_secret).not_to be_nil
    expect(sms.webhook_signing_secret).not_to eq("whsec-the-apps-own")
  ensure
    own&.close
  end

  it "opts a number out and reads the balance of its own account" do
    expect(sms.opt_out("27830000001").opted_out).to be(true)
    expect(sms.control.opt_outs_list({ "account" => sms.api_key, "environment" => "live" }).items).to eq(["27830000001"])
    before = sms.balance
    sms.sms.send_message("27831234567", "one credit")
    expect(sms.balance).to eq(before - 1)
    expect(sms.balance).to eq(sms.sms.balance)
  end

  it "puts a bundled scenario in force for its own account" do
    scenario = sms.use_bundled_scenario("happy-path")
    expect(sms.control.accounts_get_scenario(sms.api_key)).to eq(scenario)
    expect(sms.scenario({ "version" => 1 })).to eq(sms.control.accounts_get_scenario(sms.api_key))
  end

  it "runs the receiver check against the app's handler" do
    report = sms.check_receiver(@app.url, { "only" => ["statuses"] })
    expect(report.url).to eq(@app.url)
    expect(report.checks.map(&:name)).to eq(["statuses"])
  end

  it "never sees another world's messages" do
    other = SmsEmulatorKit::World.create(sms.control, name: "neighbour")
    mine = sms.sms.send_message("27831234567", "mine")
    theirs = other.sms.send_message("27831234567", "theirs")
    expect(sms.messages.map { |message| message["id"] }).to eq([mine["id"]])
    expect(other.messages.map { |message| message["id"] }).to eq([theirs["id"]])
    expect(other.sms.list["total_items"]).to eq(1)
  ensure
    other&.delete
  end

  it "sends a sandbox world through the sandbox API with its own balance and secret" do
    sandbox = SmsEmulatorKit::World.create(sms.control, name: "sandbox", signing_secret: "sandbox-secret", balance: 7, environment: "sandbox")
    expect(sandbox.sms.balance).to eq(7)
    sent = sandbox.sms.send_message("27831234567", "hello from the sandbox")
    expect(sandbox.messages.map { |message| message["id"] }).to eq([sent["id"]])
    expect(sandbox.control.messages_list({ "account" => sandbox.api_key, "environment" => "live" })["items"]).to eq([])
  ensure
    sandbox&.delete
  end

  it "explains a matcher's failure with what the world did" do
    expect { expect(sms).to have_sent(to: "27830000000") }.to raise_error(RSpec::Expectations::ExpectationNotMetError, /the world sent none/)
  end
end
