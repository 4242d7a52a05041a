// The Sandbox module's sources arrive with issue 3.
