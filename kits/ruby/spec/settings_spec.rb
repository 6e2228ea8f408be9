# frozen_string_literal: true

require_relative "spec_helper"

RSpec.describe "the kit's settings (the kit contract's settings)" do
  let(:settings) { SmsEmulatorKit::Contract.get["settings"] }

  it "has the contract's defaults and error prefix" do
    kit = SmsEmulatorKit::Settings
    expect(kit::ERROR_PREFIX).to eq(settings["errorPrefix"])
    expect(kit::START_TIMEOUT_ENV).to eq(settings["startTimeout"]["env"])
    expect(kit.duration_ms("start", kit::START_TIMEOUT)).to eq(settings["startTimeout"]["ms"])
    expect(kit.duration_ms("control", kit::CONTROL_TIMEOUT)).to eq(settings["controlTimeout"]["ms"])
    expect(kit.duration_ms("within", kit::WAIT_WITHIN)).to eq(settings["waitWithin"]["ms"])
  end

  it "reads every duration example of the contract as it says, or refuses it with the contract's problem text" do
    grammar = settings["durationGrammar"]
    expect(grammar["examples"]).not_to be_empty
    grammar["examples"].each do |example|
      if example["ms"]
        expect(SmsEmulatorKit::Settings.duration_ms("SETTING", example["text"])).to eq(example["ms"]), example["text"]
      else
        problem = grammar["problem"].gsub("{name}", "SETTING").gsub("{text}", example["text"])
        expect { SmsEmulatorKit::Settings.duration_ms("SETTING", example["text"]) }.to raise_error(ArgumentError, problem)
      end
    end
  end

  it "reads SMS_EMULATOR_START_TIMEOUT with the grammar: 2m and 120 are both 120 seconds, 2x stops the run" do
    name = SmsEmulatorKit::Settings::START_TIMEOUT_ENV
    before = ENV.fetch(name, nil)
    ENV[name] = "2m"
    expect(SmsEmulatorKit::Emulator.start_timeout_ms).to eq(120_000)
    ENV[name] = "120"
    expect(SmsEmulatorKit::Emulator.start_timeout_ms).to eq(120_000)
    ENV.delete(name)
    expect(SmsEmulatorKit::Emulator.start_timeout_ms).to eq(settings["startTimeout"]["ms"])
    ENV[name] = "2x"
    expect { SmsEmulatorKit::Emulator.start_timeout_ms }.to raise_error(SmsEmulatorKit::EmulatorError, /\Asms-emulator: #{name}="2x" is not a duration/)
  ensure
    before ? ENV[name] = before : ENV.delete(name)
  end
end
