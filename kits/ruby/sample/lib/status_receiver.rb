# frozen_string_literal: true

require "json"
require "socket"

# The shop's webhook handler: keeps the latest status of each message, never letting an older one overwrite a final
# one, and answers 200 once it has. A small HTTP server of its own, in a thread.
class StatusReceiver
  FINAL = %w[delivered undelivered expired blist noroute failed].freeze
  attr_reader :statuses, :url

  def initialize
    @statuses = {}
    @server = TCPServer.new("127.0.0.1", 0)
    @url = "http://127.0.0.1:#{@server.addr[1]}/sms/status"
    @thread = Thread.new { loop { receive(@server.accept) } }
  end

  def stop
    @thread.kill
    @server.close
  end

  private

  def receive(socket)
    length = 0
    while (line = socket.gets) && line != "\r\n"
      length = line.split(":", 2)[1].to_i if line.downcase.start_with?("content-length:")
    end
    payload = JSON.parse(socket.read(length))
    @statuses[payload["id"]] = payload["status"] unless FINAL.include?(@statuses[payload["id"]])
    socket.write("HTTP/1.1 200 OK\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
  ensure
    socket.close
  end
end
