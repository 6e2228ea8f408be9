# frozen_string_literal: true

require "net/http"
require "uri"

module SmsEmulatorKit
  # One HTTP exchange on a connection of its own (none is kept alive, so none can meet one the emulator closed while
  # idle, and none is sent twice: a transport failure is the answer, as an app would see it).
  module Http
    # Answers [status, headers (lowercase names), body].
    def self.request(method, url, headers = {}, body = nil, timeout: nil)
      # One control (or API) request may take the contract's control timeout, unless the caller says otherwise.
      timeout ||= Settings.duration_ms("controlTimeout", Settings::CONTROL_TIMEOUT) / 1000.0
      uri = URI(url)
      request = Net::HTTPGenericRequest.new(method, !body.nil?, true, uri.request_uri, headers.merge("Connection" => "close"))
      request.body = body unless body.nil?
      response = Net::HTTP.start(uri.host, uri.port, open_timeout: timeout, read_timeout: timeout) { |http| http.request(request) }
      [response.code.to_i, response.each_header.to_h, response.body.to_s]
    rescue SystemCallError, IOError, Net::OpenTimeout, Net::ReadTimeout, EOFError => e
      raise TransportError, "#{Settings::ERROR_PREFIX}no answer from #{method} #{url}: #{e.message}"
    end
  end
end
