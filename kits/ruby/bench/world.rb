# frozen_string_literal: true

# What a test's world costs the Ruby kit: medians in milliseconds of a world's set-up and clean-up alone, and of a world
# that sends one message, waits for `delivered` and reads its webhook. Prints one JSON line. Usage: ruby world.rb [worlds]

$LOAD_PATH.unshift(File.expand_path("../lib", __dir__))
require "sms_emulator_kit"

worlds = Integer(ARGV.fetch(0, "300"))
control = SmsEmulatorKit::Emulator.shared.control
clock = -> { Process.clock_gettime(Process::CLOCK_MONOTONIC, :float_millisecond) }
median = ->(times) { times.sort[times.size / 2].round(3) }
alone = []
with_send = []
worlds.times do |i|
  start = clock.call
  SmsEmulatorKit::World.create(control, name: "bench #{i}").close
  alone << clock.call - start

  start = clock.call
  world = SmsEmulatorKit::World.create(control, name: "bench send #{i}")
  sent = world.sms.send_message("27831234567", "bench")
  world.wait_for(sent["id"], "delivered")
  raise "the bench world logged no webhook" if world.webhooks(sent["id"]).empty?

  world.close
  with_send << clock.call - start
end
puts JSON.generate(kit: "ruby", worlds: worlds, emulator: "carried runtime and bundle", worldMs: median.call(alone), worldWithSendMs: median.call(with_send))
