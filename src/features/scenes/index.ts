// Scenes' public surface: what its command module (commands/scene.ts) and the app use. Everything else in this
// folder is the feature's own.
import './strings.ts';
export { SCENE_CAPS } from './script.ts';
export { previewScene } from './scene-preview.ts';
export { answerSceneButton } from './scene-delivery.ts';
export { PendingScenes } from './pending-scenes.ts';
export { sceneForm, sceneFormPurpose, FORM_SCRIPT_MAX, type SceneFormPurpose } from './scene-form.ts';
export { saveScene, sceneName } from './scene-saving.ts';
export {
  checkScript,
  makeStudioScene,
  quoteStudioScene,
  type StudioMember,
  type StudioQuote,
  type StudioServices,
  type StudioVoice,
} from './studio-scene.ts';
