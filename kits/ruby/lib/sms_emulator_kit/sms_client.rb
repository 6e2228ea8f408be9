# frozen_string_literal: true

require "base64"
require "erb"
require "json"

module SmsEmulatorKit
  # The SMS API as an app calls it, signed with the account's secret: send (now or scheduled), list, get, edit,
  # delete, balance. Answers are the parsed JSON; an error answer is an ApiError with the catalogued code.
  class SmsClient
    def initialize(origin, api_key, signing_secret, environment: "live", offset: "+02:00")
      api = Contract.get["paths"]["api"].fetch(environment) do
        raise ArgumentError, "#{Settings::ERROR_PREFIX}no environment #{environment} (live or sandbox)"
      end
      @root = "#{origin}#{api}/messages"
      @api_key = api_key
      @secret = signing_secret
      @offset = offset
    end

    # Sends a message, or with `schedule:` schedules it (a Time is written in the API's offset, rounded up).
    def send_message(recipient, message, client_reference: nil, schedule: nil)
      body = { "recipient" => Array(recipient), "message" => message }
      body["client_reference"] = client_reference unless client_reference.nil?
      body["schedule"] = schedule.is_a?(String) ? schedule : Schedule.format(schedule, @offset) unless schedule.nil?
      call("POST", "", body)
    end

    # A page of messages, newest first: recipient, status, search, page, limit.
    def list(**query)
      given = query.compact.map { |name, value| "#{name}=#{ERB::Util.url_encode(value.to_s)}" }
      call("GET", given.empty? ? "" : "?#{given.join('&')}")
    end

    def get(id) = call("GET", "/#{ERB::Util.url_encode(id)}")

    # Edits a scheduled message: only the fields given change.
    def edit(id, fields)
      fields = fields.transform_keys(&:to_s)
      fields["schedule"] = Schedule.format(fields["schedule"], @offset) if fields["schedule"].is_a?(Time)
      call("PATCH", "/#{ERB::Util.url_encode(id)}", fields)
    end

    def delete(id) = call("DELETE", "/#{ERB::Util.url_encode(id)}")

    def balance = call("GET", "/balance")["balance"].to_i

    private

    def call(method, path, body = nil)
      headers = { "Authorization" => "Basic #{Base64.strict_encode64("#{@api_key}:")}", "Accept" => "application/json" }
      text = nil
      unless body.nil?
        headers["Content-Type"] = "application/json"
        headers["Signature"] = Signing.sign(body, @secret)
        text = JSON.generate(body)
      end
      begin
        status, answer_headers, answer = Http.request(method, @root + path, headers, text)
      rescue TransportError => e
        raise ApiError.new(0, "NETWORK_ERROR", e.message)
      end
      parsed = begin
        JSON.parse(answer)
      rescue JSON::ParserError
        nil
      end
      return parsed if status.between?(200, 299) && parsed.is_a?(Hash)

      error = parsed.is_a?(Hash) ? (parsed["error"] || parsed) : {}
      retry_after = answer_headers["retry-after"]
      raise ApiError.new(status, error["message"] || "HTTP_#{status}", error["description"] || answer[0, 300],
                         retry_after&.match?(/\A\d+\z/) ? retry_after.to_i : nil)
    end
  end
end
