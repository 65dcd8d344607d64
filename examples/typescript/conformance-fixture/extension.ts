// The conformance fixture's process entry point: build the extension and serve stdio.
import { buildFixture } from "./fixture.js";

await buildFixture().run();
