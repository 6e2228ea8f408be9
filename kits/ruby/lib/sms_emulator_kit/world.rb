# frozen_string_literal: true

module SmsEmulatorKit
  # One test's world: an account of its own on a test clock of its own (its own signing secret, start time, balances,
  # environment, scopes and scenario), whose webhooks go to the app's own handler. The emulator's webhook log is the
  # kit's copy of every delivery (payload, every try and the app's answer), so matchers and waits see each one while
  # the app answers for real. Worlds never see each other: tests may run in parallel processes against one emulator.
  class World
    attr_reader :control, :sms, :api_key, :signing_secret, :clock_id, :environment
    # The secret the emulator signs this world's webhooks with (`Webhook-Signature`): its own, given or generated.
    attr_reader :webhook_signing_secret

    # Makes a world in one call. `webhook_url` is the app's own handler (its deliveries go there, retried as the spec
    # says when it fails); without one, deliveries are logged but posted nowhere. `webhook_signing_secret` is the secret
    # its webhooks are signed with (`Webhook-Signature`), generated for the world unless given.
    def self.create(control, name: "ruby test", webhook_url: nil, signing_secret: nil, balance: nil, start_time: nil,
                    environment: "live", scopes: nil, scenario: nil, offset: "+02:00", webhook_signing_secret: nil)
      sandbox = environment == "sandbox"
      account = {
        "signingSecret" => signing_secret,
        "webhookSigningSecret" => webhook_signing_secret,
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
      @webhook_signing_secret = made.account.webhook_signing_secret
      @clock_id = made.clock.id
      @environment = environment
      @sms = SmsClient.new(control.origin, @api_key, @signing_secret, environment: environment, offset: offset)
    end

    # This world's own test clock: `advance`, `set`, `run_until_idle`, `next`, `now`.
    # @return [WorldClock]
    def clock = @clock ||= WorldClock.new(control, clock_id)

    # This world's time now.
    # @return [Time]
    def now = clock.now

    # @deprecated use clock.advance (decision 0003: one facade in every kit)
    def advance(duration) = clock.advance(duration)

    # @deprecated use clock.set (decision 0003: one facade in every kit)
    def set_time(instant) = clock.set(instant)

    # @deprecated use clock.run_until_idle (decision 0003: one facade in every kit)
    def run_until_idle(limit = nil) = clock.run_until_idle(limit)

    # Puts a scenario in force for this world's account only (a Hash, or YAML or JSON text); answers it.
    # @return [Hash]
    def scenario(scenario) = control.accounts_set_scenario(api_key, scenario)

    # Puts one of the emulator's bundled scenarios (`happy-path`, `flaky-network`, …) in force for this world's account.
    # @return [Hash]
    def use_bundled_scenario(name) = control.accounts_use_bundled_scenario(api_key, name)

    # @deprecated use scenario (decision 0003: one facade in every kit)
    def use_scenario(scenario) = self.scenario(scenario)

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

    # The emulator's record of this world's webhooks (every event with its tries and the app's answers), filtered by
    # `message:` or `state:`, oldest first.
    # @return [Array<Answers::WebhookEvent>]
    def webhook_log(message: nil, state: nil) = webhooks(message, state: state)

    # Every webhook of this world, oldest first: the kit's copy of each delivery, with its payload, every try, and the
    # app's answer to each (`attempts[].status`). Waits first until the tries under way have ended.
    # @return [Array<Answers::WebhookEvent>]
    def webhooks(message_id = nil, state: nil)
      control.webhooks_settled({ "account" => api_key })
      items = []
      (1..).each do |page|
        answer = control.webhooks_list({ "account" => api_key, "environment" => environment, "message" => message_id, "state" => state,
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

    # Opts a number out for this world's account (as a STOP reply would), in its environment unless given.
    # @return [Answers::OptOut]
    def opt_out(number, environment: nil)
      control.opt_outs_add(number, { "account" => api_key, "environment" => environment || self.environment })
    end

    # This world's balance in credits, in its environment unless given.
    # @return [Integer]
    def balance(environment: nil) = control.accounts_get(api_key).public_send(environment || self.environment).balance

    # What this world spent, both environments: its credits, its messages and the five costliest, each explained in a
    # line (`top[].line`), and the whole as a failure shows it (`summary`).
    # @return [Answers::Spend]
    def spend = control.accounts_spend(api_key)

    # Sends this world's webhooks to the app's own handler from now on (attachable after the world exists, as an app
    # built from the world's key and URL needs); the emulator's log keeps the kit's copy either way.
    # @return [Answers::Account]
    def forward_to(url) = control.accounts_update(api_key, { environment => { "webhookUrl" => url } })

    # Runs the emulator's receiver check against a webhook receiver (`options` as the control API's receiverCheck
    # takes them: "state", "receiverTimeout", "only", "skip", "seed", "at", "signingSecret").
    # @return [Answers::ReceiverReport]
    def check_receiver(url, options = {}) = control.receiver_check({ "receiver" => url }.merge(options))

    # Ends the world: deletes its clock, account, messages, webhooks and journal entries.
    def close = control.clocks_delete(clock_id)

    # @deprecated use close (decision 0003: one facade in every kit)
    def delete = close
  end
end
