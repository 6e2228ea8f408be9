# frozen_string_literal: true

require "base64"
require "erb"
require "json"
require "net/http"
require "openssl"

# Texts a delivery notice through the SMS API, signed with the shop's own secret, and answers the message id.
class Notifier
  def initialize(base_url, api_key, secret)
    @base_url = base_url
    @api_key = api_key
    @secret = secret
  end

  def parcel_shipped(phone, order)
    fields = { "client_reference" => order, "message" => "Order #{order} is on its way", "recipient" => [phone] }
    canonical = "client_reference=#{ERB::Util.url_encode(order)}&message=#{ERB::Util.url_encode(fields['message'])}" \
                "&recipient[]=#{ERB::Util.url_encode(phone)}"
    uri = URI("#{@base_url}/v1/messages")
    request = Net::HTTP::Post.new(uri, "Content-Type" => "application/json",
                                       "Authorization" => "Basic #{Base64.strict_encode64("#{@api_key}:")}",
                                       "Signature" => OpenSSL::HMAC.hexdigest("SHA256", @secret, canonical))
    request.body = JSON.generate(fields)
    answer = JSON.parse(Net::HTTP.start(uri.host, uri.port) { |http| http.request(request) }.body)
    answer["id"] || raise("the SMS API refused the notice: #{answer}")
  end
end
