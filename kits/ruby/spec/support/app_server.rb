# frozen_string_literal: true

require "json"
require "socket"

# A stand-in for the app's own webhook handler: a small HTTP server on a free port in a thread of the test process. It
# keeps each post it receives and answers 500 to the first try of each event when told to.
class AppServer
  attr_reader :url, :received

  def initialize(fail_first: false)
    @server = TCPServer.new("127.0.0.1", 0)
    @url = "http://127.0.0.1:#{@server.addr[1]}/sms/status"
    @received = Queue.new
    @fail_first = fail_first
    @thread = Thread.new { loop { serve(@server.accept) } }
  end

  def posts = Array.new(@received.size) { @received.pop }.tap { |all| all.each { |post| @received << post } }

  def stop
    @thread.kill
    @server.close
  end

  private

  def serve(socket)
    until (line = socket.gets).nil? || line == "\r\n"
      headers ||= {}
      name, value = line.split(":", 2)
      headers[name.downcase] = value.strip if value
    end
    headers ||= {}
    body = socket.read(headers.fetch("content-length", "0").to_i)
    attempt = headers.fetch("x-emulator-attempt", "0").to_i
    @received << { "event" => headers["x-emulator-event-id"], "attempt" => attempt, "signature" => headers["webhook-signature"], "body" => body }
    status = @fail_first && attempt == 1 ? "500 Internal Server Error" : "200 OK"
    socket.write("HTTP/1.1 #{status}\r\nContent-Length: 2\r\nConnection: close\r\n\r\nok")
  ensure
    socket.close
  end
end
