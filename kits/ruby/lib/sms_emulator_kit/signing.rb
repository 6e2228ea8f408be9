# frozen_string_literal: true

require "erb"
require "json"
require "openssl"

module SmsEmulatorKit
  # Request signing as the API specifies it: the canonical field string and its HMAC-SHA256 (test-vectors/signing.json).
  module Signing
    # RFC 3986 percent-encoding: only A-Z a-z 0-9 - . _ ~ stay, a space is %20. ERB::Util.url_encode does exactly
    # this; URI.encode_www_form_component writes + for a space and signs another string than the API.
    def self.encode(value)
      ERB::Util.url_encode(value)
    end

    # Fields sorted by name, blank values dropped, name[]=value per list item in order, encoded, joined with &.
    def self.canonical_string(fields)
      fields.map { |name, value| [name.to_s, value] }.sort_by { |name, _| name.b }.flat_map do |name, value|
        key = encode(name)
        if value.is_a?(Array)
          value.filter_map { |item| (text = field_text(item)) && "#{key}[]=#{encode(text)}" }
        else
          (text = field_text(value)) ? ["#{key}=#{encode(text)}"] : []
        end
      end.join("&")
    end

    # The Signature header of a request body: lowercase hex HMAC-SHA256 of its canonical string.
    def self.sign(fields, secret)
      OpenSSL::HMAC.hexdigest("SHA256", secret, canonical_string(fields))
    end

    # A value as the API reads it for signing; nil for a blank one, which is left out.
    def self.field_text(value)
      text = case value
             when nil then ""
             when true, false then value.to_s
             when Hash, Array then JSON.generate(value)
             else value.to_s
             end
      text.empty? ? nil : text
    end
  end
end
