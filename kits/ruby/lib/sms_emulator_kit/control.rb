# frozen_string_literal: true

require "json"
require "erb"
require_relative "control_operations"

module SmsEmulatorKit
  # The emulator's control API (`/_emulator`): every operation of the kit contract as a method (ControlOperations,
  # generated), answers as parsed JSON, refusals as ControlError with the catalogued code.
  class Control
    include ControlOperations

    attr_reader :origin

    def initialize(origin, token = nil)
      @origin = origin
      @token = token
    end

    # Calls one operation by its contract id: path parameters in the path's order, a body (a Hash as JSON, or YAML
    # or JSON text where the operation takes text) and a query.
    def operation(id, params = [], body = nil, query = {})
      method, path = OPERATIONS.fetch(id) { raise ArgumentError, "#{Settings::ERROR_PREFIX}no control operation #{id}" }
      values = params.dup
      path = path.gsub(/\{[^}]+\}/) { ERB::Util.url_encode(values.shift.to_s) }
      headers = { "Accept" => "application/json" }
      headers["Authorization"] = "Bearer #{@token}" if @token
      text = nil
      if body.is_a?(String)
        text = body
        headers["Content-Type"] = "text/plain"
      elsif !body.nil?
        text = JSON.generate(body)
        headers["Content-Type"] = "application/json"
      end
      status, _, answer = Http.request(method, url(path, query), headers, text)
      parsed = answer.empty? ? nil : JSON.parse(answer)
      return parsed if status < 300

      error = parsed.is_a?(Hash) ? (parsed["error"] || parsed) : {}
      raise ControlError.new(status, error["message"] || "HTTP_#{status}", error["description"] || answer[0, 300])
    end

    # GET `/_emulator/report` for an account: its timeline as an HTML page (what a failing test writes out).
    def timeline_html(account)
      headers = @token ? { "Authorization" => "Bearer #{@token}" } : {}
      Http.request("GET", url("/report", { "account" => account }), headers)[2]
    end

    private

    def url(path, query)
      given = query.compact.map { |name, value| "#{ERB::Util.url_encode(name.to_s)}=#{ERB::Util.url_encode(value.to_s)}" }
      "#{@origin}#{Contract.get['paths']['control']}#{path}#{given.empty? ? '' : "?#{given.join('&')}"}"
    end
  end
end
