/** Image sizes, agents and edit settings of SPEC §2 (image AI). */

export const IMAGE_SIZES = ["1024x1024", "1024x1792", "1792x1024", "1080x1920"] as const;

export type ImageSize = (typeof IMAGE_SIZES)[number];

/** Sizes the image screen offers; the poster agent's own default 1080x1920 is also accepted. */
export const SELECTABLE_IMAGE_SIZES: readonly ImageSize[] = ["1024x1024", "1024x1792", "1792x1024"];

export const IMAGE_AGENT_IDS = ["picture-generator", "logo-maker", "whatsapp-poster", "picture-enhancer"] as const;

export type ImageAgentId = (typeof IMAGE_AGENT_IDS)[number];

export interface ImageAgent {
  id: ImageAgentId;
  name: string;
  description: string;
  icon: string;
  color: string;
  /** `{prompt}` is replaced by the user's prompt. */
  promptTemplate: string;
  defaultSize: ImageSize;
  /** The mode the agent works in: the enhancer edits an uploaded picture. */
  mode: "generate" | "edit";
}

export const IMAGE_AGENTS: readonly ImageAgent[] = [
  {
    id: "picture-generator",
    name: "Picture Generator",
    description: "Any picture from a description",
    icon: "🖼️",
    color: "#2563eb",
    promptTemplate: "{prompt}",
    defaultSize: "1024x1024",
    mode: "generate",
  },
  {
    id: "logo-maker",
    name: "Logo Maker",
    description: "Professional minimalist vector logos",
    icon: "✒️",
    color: "#7c3aed",
    promptTemplate: "Professional minimalist vector logo design for {prompt}, clean lines, flat colors, white background",
    defaultSize: "1024x1024",
    mode: "generate",
  },
  {
    id: "whatsapp-poster",
    name: "WhatsApp Poster",
    description: "Quote posters sized for status updates (9:16)",
    icon: "📱",
    color: "#16a34a",
    promptTemplate: 'Elegant vertical quote poster, 9:16, with the text "{prompt}" in beautiful typography',
    defaultSize: "1080x1920",
    mode: "generate",
  },
  {
    id: "picture-enhancer",
    name: "Picture Enhancer",
    description: "Improve an uploaded picture",
    icon: "✨",
    color: "#ea580c",
    promptTemplate: "Enhance this picture: {prompt}",
    defaultSize: "1024x1024",
    mode: "edit",
  },
];

export const DEFAULT_IMAGE_AGENT: ImageAgentId = "picture-generator";

export function imageAgentById(id: string): ImageAgent {
  return IMAGE_AGENTS.find((a) => a.id === id) ?? IMAGE_AGENTS[0]!;
}

export function applyAgentTemplate(agent: ImageAgent, prompt: string): string {
  return agent.promptTemplate.replace("{prompt}", prompt.trim());
}

export const IMAGE_EDIT_STRENGTH = { min: 0.1, max: 1, step: 0.1, screenDefault: 0.5, apiDefault: 0.8 } as const;

export const IMAGE_MIME_TYPES = ["image/jpeg", "image/png", "image/webp"] as const;
