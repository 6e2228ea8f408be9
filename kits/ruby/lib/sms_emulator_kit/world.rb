# frozen_string_literal: true

module SmsEmulatorKit
  # One test's world: an account of its own on a test clock of its own (its own signing secret, start time, balances,
  # environment, scopes and scenario), whose webhooks go to the app's own handler. The emulator's webhook log is the
  # kit's copy of every delivery (payload, every try and the app's answer), so matchers and waits see each one while
  # the app answers for real. Worlds never see each other: tests may run in parallel processes against one emulator.
  class World
    attr_reader :control, :sms, :api_key, :signing_secret, :clock_id, :environment

    # Makes a world in one call. `webhook_url` is the app's own handler (its deliveries go there, retried as the spec
    # says when it fails); without one, deliveries are logged but posted nowhere.
    def self.create(control, name: "ruby test", webhook_url: nil, signing_secret: nil, balance: nil, start_time: nil,
                    environment: "live", scopes: nil, scenario: nil, offset: "+02:00")
      sandbox = environment == "sandbox"
      account = {
        "signingSecret" => signing_secret,
        (sandbox ? "sandboxBalance" : "balance") => balance,
        (sandbox ? "sandboxWebhookUrl" : "webhookUrl") => webhook_url,
        "scopes" => scopes,
      }.compact
      request = {
        # The world's name shows in the inbox and the report: the test's id, cut to the 200 characters a name may have.
        "name" => name.length > 200 ? name[-200..] : name,
        "startTime" => start_time && Schedule.instant(start_time),
        "account" => account.empty? ? nil : account,
        "scenario" => scenario,
      }.compact
      new(control, control.worlds_create(request), environment, offset)
    end

    # @param made [Answers::World] what the control API answered when it made the world
    def initialize(control, made, environment, offset)
      @control = control
      @api_key = made.account.api_key
      @signing_secret = made.account.signing_secret
      @clock_id = made.clock.id
      @environment = environment
      @sms = SmsClient.new(control.origin, @api_key, @signing_secret, environment: environment, offset: offset)
    end

    # Moves this world's clock forward ("15m" or milliseconds); answers after the webhooks it caused were tried.
    def advance(duration) = control.clocks_move(clock_id, { "advance" => Schedule.duration(duration) })

    # Sets this world's clock to an instant (ISO text or a Time).
    def set_time(instant) = control.clocks_move(clock_id, { "set" => Schedule.instant(instant) })

    # Runs this world's clock until nothing is queued, or for at most `limit` of its time (default 30 days).
    def run_until_idle(limit = nil)
      control.clocks_move(clock_id, { "runUntilIdle" => true, "limit" => limit && Schedule.duration(limit) }.compact)
    end

    # This world's time now.
    def now = Time.iso8601(control.clocks_get(clock_id).time)

    # Puts a scenario in force for this world's account only (a Hash, or YAML or JSON text).
    def use_scenario(scenario) = control.accounts_set_scenario(api_key, scenario)

    # Waits, on this world's clock, until a message reaches a status (or `deleted`); answers the message then. `within`
    # bounds how far the world's clock may move, the contract's default (Settings::WAIT_WITHIN) unless given.
    # @return [Answers::ControlMessage]
    def wait_for(message_id, status, within: nil)
      control.messages_wait(message_id, { "status" => status, "within" => Schedule.duration(within || Settings::WAIT_WITHIN) }).message
    end

    # This world's messages as the control API shows them, filtered by status, recipient or clientReference.
    # @return [Array<Answers::ControlMessage>]
    def messages(**filter)
      control.messages_list({ "account" => api_key, "environment" => environment }.merge(filter.transform_keys(&:to_s))).items
    end

    # This world's message sent with a client reference (the API's `client_reference`), the newest if several were;
    # nil when none was.
    # @return [Answers::ControlMessage, nil]
    def message_by_reference(client_reference) = messages(clientReference: client_reference).first

    # Every webhook of this world, oldest first: the kit's copy of each delivery, with its payload, every try, and the
    # app's answer to each (`attempts[].status`). Waits first until the tries under way have ended.
    # @return [Array<Answers::WebhookEvent>]
    def webhooks(message_id = nil)
      control.webhooks_settled({ "account" => api_key })
      items = []
      (1..).each do |page|
        answer = control.webhooks_list({ "account" => api_key, "environment" => environment, "message" => message_id,
                                         "page" => page, "limit" => 100 }.compact)
        items.concat(answer.items)
        return items if page * 100 >= answer.total
      end
    end

    # The payloads of this world's delivery notifications, in the order they were made.
    def deliveries(message_id = nil)
      webhooks(message_id).select { |event| event.kind == "delivery" }.map(&:payload)
    end

    # Injects an inbound reply to a sent message, as a recipient's phone would send it.
    def reply(message_id, text, from: nil) = control.replies_inject(message_id, { "text" => text, "from" => from }.compact)

    # This world's timeline (every request, status change, webhook try and reply, with times) as an HTML page.
    def timeline_html = control.timeline_html(api_key)

    # Deletes the world: its clock, account, messages, webhooks and journal entries.
    def delete = control.clocks_delete(clock_id)
  end
end
