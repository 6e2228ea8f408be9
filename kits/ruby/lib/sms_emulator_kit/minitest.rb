# frozen_string_literal: true

require "minitest"
require_relative "../sms_emulator_kit"

module SmsEmulatorKit
  # Minitest: `include SmsEmulatorKit::Minitest` in a test class gives each test `sms`, a world of its own, made
  # before it and deleted after it; a failing test's timeline is written and named in the output. Settings: override
  # `sms_world_options`, as World.create names them. Budgets: override `sms_cost_budget` (credits; per test, read
  # `name`) to fail a test whose world spent more; `SmsEmulatorKit::Minitest.cost_budget = 50` fails the run at its end
  # when its worlds spent more in all, naming the tests that spent most.
  module Minitest
    # The run's credit budget in all (nil, the default: none).
    def self.cost_budget=(credits)
      SuiteSpend.budget = Cost.budget(credits, "SmsEmulatorKit::Minitest.cost_budget")
    end

    # Ends the run with its top spenders and a failing status when its worlds spent more than the suite budget
    # (added by Minitest's plugin, minitest/sms_emulator_kit_plugin.rb).
    class CostBudgetReporter < ::Minitest::AbstractReporter
      def initialize(io)
        super()
        @io = io
      end

      def report
        @failure = SuiteSpend.over_budget
        @io.puts("\n#{@failure}") if @failure
      end

      def passed? = @failure.nil?
    end

    def sms = @sms

    def sms_world_options = {}

    # This test's credit budget: its world may spend at most this many credits (nil, the default: no budget).
    def sms_cost_budget = nil

    def before_setup
      super
      @sms = World.create(Emulator.shared.control, name: sms_test_id, **sms_world_options)
    end

    def before_teardown
      super
      budget = Cost.budget(sms_cost_budget, "sms_cost_budget")
      assert_cost_at_most(budget) if @sms && budget && passed?
    end

    def after_teardown
      if @sms
        unless passed? || skipped?
          file = Timeline.write(sms_test_id, @sms.timeline_html)
          warn "\n#{Settings::ERROR_PREFIX}the timeline of #{sms_test_id}: #{file}"
        end
        SuiteSpend.record(sms_test_id, @sms)
        @sms.close
      end
      super
    end

    # Asserts that the world sent a message to `to` (whose text contains or matches `text`, when given), failing with what
    # it did send; answers the message.
    # @return [Answers::ControlMessage]
    def assert_sent(to, text = nil)
      messages = sms.messages
      found = messages.find do |message|
        message.recipient.include?(to) && (text.nil? || text === message.message || message.message.include?(text.to_s))
      end
      sent = messages.map { |message| "#{message.recipient.join(',')}: #{message.message.inspect} (#{message.status})" }
      assert found, "expected a message to #{to}#{" matching #{text.inspect}" if text}; the world sent #{sent.empty? ? 'none' : sent.join('; ')}"
      found
    end

    # Asserts that a delivery notification with `status` was made for a message (whatever the app answered), failing with
    # the ones that were; answers the event.
    # @return [Answers::WebhookEvent]
    def assert_webhook(message_id, status)
      events = sms.webhooks(message_id).select { |event| event.kind == "delivery" }
      found = events.find { |event| event.payload["status"] == status }
      seen = events.map { |event| "#{event.payload['status']} (tries answered #{event.attempts.map { |a| a.status || a.error }.join(', ')})" }
      assert found, "expected a #{status} webhook for #{message_id}; the world's webhooks: #{seen.empty? ? 'none' : seen.join('; ')}"
      found
    end

    # Asserts that a text, or a message the kit answered (its "message"), stays GSM-7, as the emulator's `cost` answers;
    # a failure shows its breakdown. Answers the emulator's explanation.
    # @return [Answers::CostExplanation]
    def assert_stays_gsm7(subject)
      cost = Cost.explain(subject)
      assert cost.encoding == "GSM-7", -> { Cost.not_gsm7(cost) }
      cost
    end

    # Asserts that a text, or a message the kit answered, is sent in at most `segments` parts; a failure shows its
    # breakdown. Answers the emulator's explanation.
    # @return [Answers::CostExplanation]
    def assert_fits_segments(subject, segments)
      cost = Cost.explain(subject)
      assert cost.segments <= segments, -> { Cost.too_many_segments(cost, segments) }
      cost
    end

    # Asserts that the test's world spent at most `credits` on the messages it sent; a failure names its top spenders,
    # each with why it cost that. Answers the spend.
    # @return [Answers::Spend]
    def assert_cost_at_most(credits)
      spend = sms.spend
      assert spend.credits <= credits, -> { Cost.overspent(spend, credits) }
      spend
    end

    private

    def sms_test_id = "#{self.class.name}##{name}"
  end
end
