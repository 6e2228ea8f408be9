# frozen_string_literal: true

require "rspec/core"
require "rspec/expectations"
require_relative "../sms_emulator_kit"

module SmsEmulatorKit
  # RSpec: an example tagged `:sms` gets `sms`, a world of its own, made before it and deleted after it; a failing
  # example's timeline is written and named in the output. Settings: `sms: { webhook_url: …, signing_secret: … }`
  # metadata (on the example or its group), or `let(:sms_world_options) { { … } }`, as World.create names them.
  # Budgets: `cost_budget: 3` metadata fails an example whose world spent more than 3 credits; `config.sms_cost_budget
  # = 50` fails the run at its end when its worlds spent more in all, naming the examples that spent most.
  module RSpec
    # What a tagged example sees.
    module Helpers
      def sms = @sms
    end

    # The world's settings for one example: its metadata's, then its `sms_world_options`.
    def self.options_for(example)
      tagged = example.metadata[:sms].is_a?(Hash) ? example.metadata[:sms] : {}
      instance = example.example_group_instance
      given = instance.respond_to?(:sms_world_options) ? instance.sms_world_options : {}
      tagged.merge(given)
    end

    def self.test_id(example) = "#{example.metadata[:file_path].delete_prefix('./')}::#{example.full_description}"
  end
end

RSpec.configure do |config|
  config.add_setting :sms_cost_budget
  config.include SmsEmulatorKit::RSpec::Helpers, :sms
  config.before(:suite) { SmsEmulatorKit::SuiteSpend.budget = SmsEmulatorKit::Cost.budget(config.sms_cost_budget, "config.sms_cost_budget") }
  config.after(:example, :sms) do |example|
    budget = SmsEmulatorKit::Cost.budget(example.metadata[:cost_budget], "cost_budget:")
    expect(sms).to cost_at_most(budget) if budget && example.exception.nil?
  end
  config.after(:suite) do
    failure = SmsEmulatorKit::SuiteSpend.over_budget
    raise RSpec::Expectations::ExpectationNotMetError, failure if failure
  end
  config.around(:example, :sms) do |example|
    id = SmsEmulatorKit::RSpec.test_id(example)
    world = SmsEmulatorKit::World.create(SmsEmulatorKit::Emulator.shared.control, name: id, **SmsEmulatorKit::RSpec.options_for(example))
    example.example_group_instance.instance_variable_set(:@sms, world)
    begin
      example.run
    ensure
      if example.exception
        file = SmsEmulatorKit::Timeline.write(id, world.timeline_html)
        warn "\n#{SmsEmulatorKit::Settings::ERROR_PREFIX}the timeline of #{id}: #{file}"
      end
      SmsEmulatorKit::SuiteSpend.record(id, world)
      world.close
    end
  end
end

# `expect(sms).to have_sent(to: "27831234567", text: /appointment/)`: the world sent such a message (its status too, with
# `status:`), matched on the control API's view of its messages.
RSpec::Matchers.define :have_sent do |to: nil, text: nil, status: nil|
  match do |world|
    @messages = world.messages
    @messages.any? do |message|
      (to.nil? || message["recipient"].include?(to)) && (text.nil? || text === message["message"] || message["message"].include?(text.to_s)) &&
        (status.nil? || message["status"] == status)
    end
  end
  failure_message do
    sent = @messages.map { |message| "#{message['recipient'].join(',')}: #{message['message'].inspect} (#{message['status']})" }
    "expected a message#{" to #{to}" if to}#{" matching #{text.inspect}" if text}#{" in #{status}" if status}; the world sent #{sent.empty? ? 'none' : sent.join('; ')}"
  end
end

# `expect(sms).to have_received_webhook(status: "delivered", message: id)`: a delivery notification with that status
# was made (for that message, and recipient with `to:`), whatever the app answered; `answered: 200` asks the app's answer.
RSpec::Matchers.define :have_received_webhook do |status:, message: nil, to: nil, answered: nil|
  match do |world|
    @events = world.webhooks(message).select { |event| event["kind"] == "delivery" }
    @events.any? do |event|
      event["payload"]["status"] == status && (to.nil? || event["recipient"] == to) &&
        (answered.nil? || event["attempts"].any? { |attempt| attempt["status"] == answered })
    end
  end
  failure_message do
    seen = @events.map { |event| "#{event['payload']['status']} (tries answered #{event['attempts'].map { |a| a['status'] || a['error'] }.join(', ')})" }
    "expected a #{status} webhook#{" for #{message}" if message}; the world's webhooks: #{seen.empty? ? 'none' : seen.join('; ')}"
  end
end

# `expect("It's ready").to stay_gsm7`: the text (or a message the kit answered: its "message") stays GSM-7, as the
# emulator's `cost` answers; a failure shows its breakdown.
RSpec::Matchers.define :stay_gsm7 do
  match { |subject| (@cost = SmsEmulatorKit::Cost.explain(subject)).encoding == "GSM-7" }
  failure_message { SmsEmulatorKit::Cost.not_gsm7(@cost) }
end

# `expect(sent).to fit_segments(1)`: the text (or a message the kit answered) is sent in at most that many parts; a
# failure shows its breakdown.
RSpec::Matchers.define :fit_segments do |segments|
  match { |subject| (@cost = SmsEmulatorKit::Cost.explain(subject)).segments <= segments }
  failure_message { SmsEmulatorKit::Cost.too_many_segments(@cost, segments) }
end

# `expect(sms).to cost_at_most(3)`: the world spent at most that many credits on the messages it sent; a failure names
# its top spenders, each with why it cost that.
RSpec::Matchers.define :cost_at_most do |credits|
  match { |world| (@spend = world.spend).credits <= credits }
  failure_message { SmsEmulatorKit::Cost.overspent(@spend, credits) }
end
