/** AI providers, one interface per capability (chat, image, video); offline by default (DESIGN §5). */
export * from "./errors";
export * from "./chat/index";
export * from "./image/index";
export * from "./video/index";
