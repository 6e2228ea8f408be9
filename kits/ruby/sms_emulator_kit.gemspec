# frozen_string_literal: true

Gem::Specification.new do |spec|
  spec.name = "sms_emulator_kit"
  spec.version = "0.1.0"
  spec.summary = "Test worlds for RSpec and Minitest suites of apps that send SMS, on sms-emulator."
  spec.description = "Each test its own account on its own test clock of sms-emulator, whose webhooks reach the app's " \
                     "own handler: a signing client, clock moves, waits, scenarios, matchers, every control operation, " \
                     "and the timeline of a failing test. Carries the emulator; add sms_emulator_kit-node for Node."
  spec.authors = ["sms-emulator maintainers"]
  spec.license = "MIT"
  spec.required_ruby_version = ">= 3.1"
  spec.files = Dir["lib/**/*.rb", "resources/**/*", "README.md", "LICENSE"]
  spec.require_paths = ["lib"]
end
