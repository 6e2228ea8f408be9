# frozen_string_literal: true

require_relative "spec_helper"

RSpec.describe "the kit contract (test-vectors/kit-contract.json)" do
  let(:contract) { SmsEmulatorKit::Contract.get }

  it "has every control operation as a method of Control" do
    names = contract["operations"].map { |operation| operation["names"]["ruby"] }
    expect(names.size).to be > 40
    expect(names.reject { |name| SmsEmulatorKit::Control.method_defined?(name) }).to eq([]), "run npm run vectors"
  end

  it "carries the contract's version in the gem and the library" do
    spec = Gem::Specification.load(File.expand_path("../sms_emulator_kit.gemspec", __dir__))
    expect([spec.version.to_s, SmsEmulatorKit::VERSION]).to eq([contract["version"], contract["version"]])
  end

  it "reaches the control API and both environments by the contract's paths" do
    expect(contract["paths"]["control"]).to eq("/_emulator")
    expect(contract["paths"]["api"].keys).to eq(%w[live sandbox])
    client = SmsEmulatorKit::SmsClient.new("http://x", "pk_test_x", "s", environment: "sandbox")
    expect(client.instance_variable_get(:@root)).to eq("http://x#{contract['paths']['api']['sandbox']}/messages")
  end

  it "names a failing test's timeline by the contract's rule for every example" do
    expect(contract["timeline"]["examples"]).not_to be_empty
    contract["timeline"]["examples"].each do |example|
      expect(SmsEmulatorKit::Contract.timeline_file(example["test"])).to eq(example["file"])
    end
  end

  it "resolves a relative command against the project root from any folder" do
    root = File.expand_path("..", __dir__)
    words = SmsEmulatorKit::Emulator.resolve_command("node ../../bin/sms-emulator.js --seed 1", File.join(root, "spec", "fixtures")).split
    expect(words).to eq(["node", File.join(root, "../../bin/sms-emulator.js"), "--seed", "1"])
    expect(File).to exist(words[1])
  end
end
