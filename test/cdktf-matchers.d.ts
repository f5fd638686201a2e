// Brings cdktf's jest matcher types (toHaveResourceWithProperties, ...) into the type-check.
import 'cdktf/lib/testing/adapters/jest';
