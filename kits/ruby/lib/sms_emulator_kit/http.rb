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
      raise TransportError, "#{Settings::ERROR_PREFIX}no answer from #{method} #{shown_url(url)}: #{e.message}"
    end

    # A scheme, `//`, then the authority up to the first `/`, `?`, `#`, white space or a character no URL holds unencoded.
    AUTHORITY = %r{\b([a-z][a-z0-9+.-]*:[/\\]{2})([^\s/\\?#"<>`{}|^]*)}i

    # `text` with the password of every URL in it masked as `***`, the user name kept: the emulator's rule for what is
    # shown (docs/security.md#credentials-in-what-it-shows), for the kit's own printed lines and errors. The userinfo
    # ends at the authority's last `@`, the password starts after its first `:`.
    def self.shown_url(text)
      return text unless text.include?("@")

      text.gsub(AUTHORITY) do
        scheme, authority = Regexp.last_match(1), Regexp.last_match(2)
        at, colon = authority.rindex("@"), authority.index(":")
        at.nil? || colon.nil? || colon >= at - 1 ? "#{scheme}#{authority}" : "#{scheme}#{authority[0..colon]}***#{authority[at..]}"
      end
    end
  end
end
