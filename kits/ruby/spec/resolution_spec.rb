# frozen_string_literal: true

require_relative "spec_helper"
require "open3"
require "tmpdir"

RSpec.describe "how the kit finds its emulator, seen from a run of its own" do
  def run_script(env, mode = "")
    Open3.capture3(env, Gem.ruby, File.expand_path("fixtures/start_and_die.rb", __dir__), mode, chdir: File.expand_path("..", __dir__))
  end

  it "reports a URL that does not answer once, naming the variable, and does not try again" do
    output, errors, = run_script({ "SMS_EMULATOR_URL" => "http://127.0.0.1:9" })
    expect(output).to include("attempt 1: sms-emulator: SMS_EMULATOR_URL=http://127.0.0.1:9 does not answer")
    expect(output).to include("attempt 2: sms-emulator: SMS_EMULATOR_URL=http://127.0.0.1:9 does not answer")
    expect(errors.scan("sms-emulator: emulator from").size).to eq(1)
  end

  it "masks a password in the URL wherever it prints it, as the emulator does" do
    output, errors, = run_script({ "SMS_EMULATOR_URL" => "http://proxy:pw-PLANTED-1@127.0.0.1:9" })
    expect(output).to include("SMS_EMULATOR_URL=http://proxy:***@127.0.0.1:9 does not answer")
    expect(errors).to include("emulator from SMS_EMULATOR_URL=http://proxy:***@127.0.0.1:9")
    expect(output + errors).not_to include("pw-PLANTED-1")
    expect(SmsEmulatorKit::Http.shown_url("http://user:p@ss:w@rd@[::1]:4000/hook?to=a@b")).to eq("http://user:***@[::1]:4000/hook?to=a@b")
    ["http://127.0.0.1:4000/x", "http://hooks@h/", "http://u:@h/", "http://h/p@x", "not a url: pw@host"].each do |kept|
      expect(SmsEmulatorKit::Http.shown_url(kept)).to eq(kept)
    end
  end

  it "leaves no temporary folder when the run is killed after starting its emulator" do
    Dir.mktmpdir("sms-ruby-killed-") do |tmp|
      env = { "TMPDIR" => tmp, "SMS_EMULATOR_URL" => nil, "SMS_EMULATOR_COMMAND" => ENV.fetch("SMS_EMULATOR_COMMAND", "node ../../bin/sms-emulator.js") }
      output, = run_script(env, "die")
      expect(output).to eq("")
      expect(Dir.children(tmp)).to eq([])
    end
  end
end
