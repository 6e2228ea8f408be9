# frozen_string_literal: true

require_relative "../sms_emulator_kit"

module SmsEmulatorKit
  # Minitest: `include SmsEmulatorKit::Minitest` in a test class gives each test `sms`, a world of its own, made
  # before it and deleted after it; a failing test's timeline is written and named in the output. Settings: override
  # `sms_world_options`, as World.create names them.
  module Minitest
    def sms = @sms

    def sms_world_options = {}

    def before_setup
      super
      @sms = World.create(Emulator.shared.control, name: sms_test_id, **sms_world_options)
    end

    def after_teardown
      if @sms
        unless passed? || skipped?
          file = Timeline.write(sms_test_id, @sms.timeline_html)
          warn "\n#{Settings::ERROR_PREFIX}the timeline of #{sms_test_id}: #{file}"
        end
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

    private

    def sms_test_id = "#{self.class.name}##{name}"
  end
end
