import { describe, expect, it } from "vitest";
import { storedFileUrl } from "@storefront/shared/server";
import { agentPrompt, keyOfStoredFileUrl } from "./images";

describe("agentPrompt", () => {
  it("wraps the prompt in the agent's template once", () => {
    const logo = agentPrompt("logo-maker", " a coffee shop ");
    expect(logo).toBe("Professional minimalist vector logo design for a coffee shop, clean lines, flat colors, white background");
    // The client already applied the template (SPEC §7): it is not wrapped twice.
    expect(agentPrompt("logo-maker", logo)).toBe(logo);
    expect(agentPrompt("picture-generator", "a cat")).toBe("a cat");
    expect(agentPrompt("whatsapp-poster", "Be kind")).toBe(
      'Elegant vertical quote poster, 9:16, with the text "Be kind" in beautiful typography',
    );
  });
});

describe("stored-file URLs", () => {
  const key = "images/0123456789abcdef01234567/0123456789abcdef01234567.png";
  it("maps keys to URLs and back, and nothing else to a key", () => {
    expect(keyOfStoredFileUrl(storedFileUrl(key))).toBe(key);
    expect(keyOfStoredFileUrl(`https://shop.example.test${storedFileUrl(key)}`)).toBe(key);
    expect(keyOfStoredFileUrl("https://cdn.example.test/a.png")).toBeNull();
    expect(keyOfStoredFileUrl("/api/media/images/../../etc/passwd")).toBeNull();
  });
});
